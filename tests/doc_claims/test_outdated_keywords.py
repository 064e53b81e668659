"""A parameter that moved into `**kwargs` is lost only when the `**kwargs` cannot take it.

The head's `**kwargs` is read honestly: the keys its body reads, and what the callees it passes
the dictionary to take when they are this repository's definitions. `TestClient` passes it to
`Session`, which has no `scheme`; `connect` reads only `timeout` out of it; `raises` passes it to
the caller's own callable; `fetch` passes it to another library's call (which may take anything).
An old body's `kwargs.pop("message")` was a keyword the definition took (rules in
docs/doc-claims.md, "Outdated").
"""

from __future__ import annotations

import pytest

from sextant.doc_claims import ClaimFinding, DocCheckReport, check_repository
from sextant.doc_claims.judging.keyword_forwarding import Callee, accepted_keywords

from ..conftest import GitRepo

BEFORE = """\
import urllib.request


class Session:
    def __init__(self, cookies=None, timeout=None):
        self.cookies = cookies


class TestClient:
    def __init__(self, app, *, scheme="http", host="127.0.0.1", cookies=None):
        self.app = app


def connect(host, retries=3, timeout=None):
    return host


def raises(expected, *args, **kwargs):
    if "message" in kwargs:
        message = kwargs.pop("message")
    func = args[0]
    return func(*args[1:], **kwargs)


def fetch(url, retries=3, timeout=None):
    return urllib.request.urlopen(url, timeout=timeout)
"""
AFTER = """\
import urllib.request


class Session:
    def __init__(self, cookies=None, timeout=None):
        self.cookies = cookies


class TestClient:
    def __init__(self, app, *, cookies=None, **kwargs):
        self.app = app
        self.session = Session(cookies=cookies,
                               **kwargs)


def connect(host, **kwargs):
    timeout = kwargs.pop("timeout", None)
    if kwargs:
        raise TypeError(", ".join(sorted(kwargs)))
    return host


def raises(expected, *args, **kwargs):
    if not args:
        if kwargs:
            raise TypeError("unexpected keywords: " + ", ".join(sorted(kwargs)))
        return expected
    func = args[0]
    return func(*args[1:], **kwargs)


def fetch(url, **kwargs):
    return urllib.request.urlopen(url, **kwargs)
"""
DOC = """\
API
===

.. class:: acme.client.TestClient(app, *, scheme='http', host='127.0.0.1')

.. autofunction:: acme.client.connect(host, retries=3, timeout=None)

.. autofunction:: acme.client.raises(expected, [message])

.. autofunction:: acme.client.fetch(url, retries=3)
"""


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> DocCheckReport:
    repo = GitRepo(tmp_path_factory.mktemp("keywords") / "repo")
    repo.write("pyproject.toml", '[project]\nname = "acme"\n')
    repo.write("acme/__init__.py", '"""acme."""\n')
    repo.write("acme/client.py", BEFORE)
    repo.write("docs/api.rst", DOC)
    repo.commit("Client and docs", date="2024-01-02T10:00:00+00:00")
    repo.write("acme/client.py", AFTER)
    repo.commit("Keywords through **kwargs", date="2024-03-05T09:00:00+00:00")
    return check_repository(repo.root)


def _finding(report: DocCheckReport, name: str) -> ClaimFinding:
    return next(f for f in report.findings if f.doc == "docs/api.rst" and f.ref.split("(", 1)[0] == name)


def test_kwargs_passed_to_our_own_class_that_lacks_the_parameter_lose_it(report: DocCheckReport) -> None:
    found = _finding(report, "acme.client.TestClient")
    assert found.status == "outdated"
    assert found.changed is not None
    assert found.changed.startswith("TestClient.__init__ lost parameters scheme, host on 2024-03-05")


def test_kwargs_read_for_other_keys_only_lose_the_parameter(report: DocCheckReport) -> None:
    found = _finding(report, "acme.client.connect")
    assert found.status == "outdated"
    assert found.changed is not None
    assert found.changed.startswith("connect lost parameter retries on 2024-03-05")


def test_a_key_an_old_body_read_out_of_kwargs_was_a_parameter(report: DocCheckReport) -> None:
    # `kwargs.pop("message")` is gone; what is left passes the dictionary to the caller's callable.
    found = _finding(report, "acme.client.raises")
    assert found.status == "outdated"
    assert found.changed is not None
    assert found.changed.startswith("raises lost parameter message on 2024-03-05")


def test_kwargs_passed_to_another_librarys_call_may_take_the_parameter(report: DocCheckReport) -> None:
    assert _finding(report, "acme.client.fetch").status == "verified"


def test_a_stored_or_merged_dictionary_may_take_any_keyword() -> None:
    def never(_written: str) -> None:
        return None

    stored = "def configure(self, **options):\n    self.options = options\n"
    merged = "def configure(self, **options):\n    return {**options}\n"
    assert accepted_keywords(["def configure(self, **options):"], "configure", stored, never) is None
    assert accepted_keywords(["def configure(self, **options):"], "configure", merged, never) is None


def test_a_callee_whose_declaration_is_cut_short_may_take_any_keyword() -> None:
    # aiohttp's `ClientSession.request(self, method, url, **kwargs)` hands its keywords to `self._request`,
    # whose 40-parameter declaration the index stores cut short: its list cannot be read, so nothing
    # may be said lost (before: it took none, and `params`, `headers`, … of the doc came out outdated).
    body = "def request(self, method, url, **kwargs):\n    return Manager(self._request(method, url, **kwargs))\n"
    cut = "async def _request(\nself,\nmethod: str,\n*,\nparams: Query = None,\nmiddlewares: Sequence[Middleware] | N"
    callee = Callee((cut,), "_request", "")
    taken = accepted_keywords(
        ["def request(self, method, url, **kwargs)"],
        "request",
        body,
        lambda written: callee if written == "self._request" else None,
    )
    assert taken is None
