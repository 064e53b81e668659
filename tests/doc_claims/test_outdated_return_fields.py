"""A class a reference page names as a return value, and the extent of a sample inside a directive.

Two ways a constructor's lost parameter reached a `:return:` line that never spoke of building
one: the sample a `::` opens inside a directive's body was read to the end of the body (so a later
field's `:attr:` span looked like sample code), and a class named as what a call returns was
compared as if the reader constructed it. Rules in docs/doc-claims.md, "Outdated".
"""

from __future__ import annotations

import pytest

from sextant.doc_claims import DocCheckReport, check_repository

from ..conftest import GitRepo

BEFORE = """\
class Response:
    def __init__(self, method, url, *, auto_decompress=True):
        self.method = method


class Session:
    auto_decompress = True

    def request(self, method, url, *, auto_decompress=None):
        return Response(method, url)

    def get(self, url):
        return Response("GET", url)
"""
AFTER = """\
class Response:
    def __init__(self, method, url):
        self.method = method


class Session:
    auto_decompress = True

    def request(self, method, url, *, auto_decompress=None):
        return Response(method, url)

    def get(self, url):
        return Response("GET", url)
"""
REFERENCE = """\
Client
======

.. method:: acme.client.Session.request(method, url, *, auto_decompress=None)

   Send a request, for example::

       session.request("GET", url)

   :param bool auto_decompress: Overrides :attr:`Session.auto_decompress`.

   The answer is a :class:`response <acme.client.Response>` object.
"""
GETTING = """\
Get
===

.. method:: acme.client.Session.get(url)

   :rtype: :class:`acme.client.Response`

   For instance::

       response = Response("GET", url, auto_decompress=False)
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> DocCheckReport:
    repo = GitRepo(tmp_path_factory.mktemp("returns") / "repo")
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", '"""acme."""\n')
    repo.write("acme/client.py", BEFORE)
    repo.write("docs/reference.rst", REFERENCE)
    repo.write("docs/get.rst", GETTING)
    repo.commit("Client and reference", date="2024-01-02T10:00:00+00:00")
    repo.write("acme/client.py", AFTER)
    repo.commit("Responses always decompress", date="2024-03-05T09:00:00+00:00")
    return check_repository(repo.root)


def test_a_sample_opened_inside_a_directive_ends_with_its_deeper_lines(report: DocCheckReport) -> None:
    # `:attr:`Session.auto_decompress`` is a field of the directive, not a line of its sample.
    found = next(f for f in report.findings if f.doc == "docs/reference.rst" and f.line == 12)
    assert found.ref.endswith("<acme.client.Response>")
    assert found.status == "verified"


def test_a_class_named_as_a_return_type_is_not_held_to_its_constructor(report: DocCheckReport) -> None:
    # The sample below builds a Response with the lost keyword; the `:rtype:` line only says what
    # `get` returns.
    found = next(f for f in report.findings if f.doc == "docs/get.rst" and f.line == 6)
    assert found.ref.endswith("acme.client.Response`") or "Response" in found.ref
    assert found.status == "verified"
