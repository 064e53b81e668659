"""A parameter an API directive documents, in its signature or a field, is one its definition takes today.

Shaped on aiohttp's client reference, whose `.. class:: ClientSession(…)` kept `conn_timeout=None`
and its `:param float conn_timeout:` field after the main line's constructor had dropped it (the
lines were rewritten later, when a maintained branch's docs came back, so no commit after the line
removed it: only the head can say it).
"""

from __future__ import annotations

import pytest

from sextant.doc_claims import DocCheckReport, check_repository

from ..conftest import GitRepo

CLIENT = """\
import dataclasses


class ClientSession:
    def __init__(self, base_url=None, *, connector=None, timeout=None):
        self.base_url = base_url


class Connector:
    def __init__(self, *, limit=100, **kwargs):
        self.options = dict(kwargs)


@dataclasses.dataclass
class Timeout:
    total: float = 300.0


def request(method, url, *, params=None):
    return method, url, params


def frozen(instance, attribute, new_value):
    return new_value


class Fingerprint:
    def __init__(self, fingerprint: bytes) -> None:
        self.fingerprint = fingerprint


def add_routes(self, routes):
    return list(routes)
"""
DOC = """\
Client reference
================

.. class:: ClientSession(base_url=None, *, \\
                         connector=None, \\
                         conn_timeout=None, \\
                         timeout=sentinel)

   The class for creating client sessions.

   :param base_url: Base part of the URL.

   :param float conn_timeout: timeout for connection establishing.

   :param loop: event loop; no longer accepted since 4.0, see ``timeout``.

.. class:: Connector(*, limit=100, keepalive_timeout=15)

   :param int keepalive_timeout: seconds to keep a connection.

.. class:: Timeout(total=None, sock_connect=None)

.. autoclass:: ClientSession(base_url, *, read_timeout)

.. function:: request(method, url, *, params=None, chunked=False)

.. function:: frozen(same_as_define)

.. class:: Fingerprint(digest)

   :param bytes digest: SHA256 digest of the certificate.

.. function:: add_routes(routes)
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> DocCheckReport:
    repo = GitRepo(tmp_path_factory.mktemp("params") / "repo")
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", "")
    repo.write("acme/client.py", CLIENT)
    repo.write("docs/client_reference.rst", DOC)
    repo.commit("Client and its reference", date="2024-01-02T10:00:00+00:00")
    return check_repository(repo.root)


def _line(text: str) -> int:
    return DOC.split("\n").index(text) + 1


def _on(report: DocCheckReport, text: str) -> list[tuple[str, str]]:
    return [(f.ref, f.status) for f in report.findings if f.line == _line(text)]


def test_a_slot_and_a_field_of_a_parameter_the_constructor_does_not_take_are_contradicted(
    report: DocCheckReport,
) -> None:
    slot = _on(report, "                         conn_timeout=None, \\")
    field = _on(report, "   :param float conn_timeout: timeout for connection establishing.")
    assert slot == [("ClientSession(conn_timeout)", "contradicted")]  # before: no claim on the line
    assert field == [("ClientSession(conn_timeout)", "contradicted")]  # before: a field was news only as outdated
    evidence = next(f.evidence for f in report.findings if f.ref == "ClientSession(conn_timeout)")
    assert evidence == (
        "ClientSession.__init__ takes no parameter conn_timeout"
        " (it takes base_url, connector, timeout: acme/client.py:4)"
    )
    request = _on(report, ".. function:: request(method, url, *, params=None, chunked=False)")
    assert ("request(chunked)", "contradicted") in request


def test_slots_and_fields_the_definition_takes_say_nothing_beyond_the_directive(report: DocCheckReport) -> None:
    first = _on(report, ".. class:: ClientSession(base_url=None, *, \\")
    assert first == [("ClientSession(base_url=None, *, \\", "verified")]  # the directive's own claim alone
    assert _on(report, "                         connector=None, \\") == []
    assert _on(report, "   :param base_url: Base part of the URL.") == []


def test_what_the_code_may_take_unnamed_or_generates_or_the_sentence_retires_is_left_alone(
    report: DocCheckReport,
) -> None:
    # `**kwargs` may take it; a dataclass's constructor is generated; the field tells history;
    # an autoclass signature is Sphinx's reading of the code, not the doc's.
    assert [s for _, s in _on(report, "   :param int keepalive_timeout: seconds to keep a connection.")] == []
    assert [r for r, _ in _on(report, ".. class:: Connector(*, limit=100, keepalive_timeout=15)")] == [
        "Connector(*, limit=100, keepalive_timeout=15)"
    ]
    assert [r for r, _ in _on(report, ".. class:: Timeout(total=None, sock_connect=None)")] == [
        "Timeout(total=None, sock_connect=None)"
    ]
    assert _on(report, "   :param loop: event loop; no longer accepted since 4.0, see ``timeout``.") == []
    assert [r for r, _ in _on(report, ".. autoclass:: ClientSession(base_url, *, read_timeout)")] == [
        "ClientSession(base_url, *, read_timeout)"
    ]


def test_a_signature_sharing_no_parameter_with_the_definition_is_not_held_to_it(report: DocCheckReport) -> None:
    # `attr.frozen(same_as_define)` reached another `frozen` (a setter's): with no parameter in
    # common, the doc and the code may not speak of the same callable.
    assert [r for r, _ in _on(report, ".. function:: frozen(same_as_define)")] == ["frozen(same_as_define)"]


def test_the_one_parameter_a_doc_documents_under_another_name_than_the_definitions_one_is_contradicted(
    report: DocCheckReport,
) -> None:
    # aiohttp's `.. class:: Fingerprint(digest)` after the constructor's one parameter became
    # `fingerprint`: one documented, one taken, so the same parameter renamed.
    assert ("Fingerprint(digest)", "contradicted") in _on(report, ".. class:: Fingerprint(digest)")
    assert _on(report, "   :param bytes digest: SHA256 digest of the certificate.") == [
        ("Fingerprint(digest)", "contradicted")
    ]
    found = [f for f in report.findings if f.ref == "Fingerprint(digest)" and f.status == "contradicted"]
    evidence = found[0].evidence
    assert evidence == (
        "Fingerprint.__init__ takes no parameter digest; its one parameter is fingerprint (acme/client.py:27)"
    )
    assert [s for _, s in _on(report, ".. function:: add_routes(routes)")] == ["verified"]  # the same name
