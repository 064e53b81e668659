"""A method's parameters are no members of its class, even on a signature's continuation line.

A class's outline shows each method by its whole header, so `loop, timeout=None):` on the second line
of `def __init__(self, connector=None, *,` is there among the class's own lines; it reads like an
unpacking assignment, but it binds nothing of the class or its module.
"""

from __future__ import annotations

from sextant.doc_claims import check_repository

from ..conftest import GitRepo

CLIENT_PY = '''\
"""The client."""


class Session:
    """A session."""

    retries, backoff = 3, 0.5

    def __init__(self, connector=None, *,
                 loop, timeout=None, cookies=None):
        self._loop = loop

    def request(self, method, url, *,
                params, data=None):
        return url


def fetch(url, *,
          session, proxy=None):
    return url
'''
API_DOC = """\
# API

`Session.retries` and `Session.backoff` tune retrying. `Session.timeout` and `Session.params` are not
attributes.
"""


def test_parameters_on_a_signatures_continuation_line_are_no_members(git_repo: GitRepo) -> None:
    git_repo.commit_files(
        "Add the client",
        {"acme/__init__.py": '"""Acme."""\n', "acme/client.py": CLIENT_PY, "docs/api.md": API_DOC},
    )

    found = {f.ref: f for f in check_repository(git_repo.root).findings if f.kind == "symbol"}

    for name in ("Session.retries", "Session.backoff"):
        assert found[name].status == "verified", (name, found[name].evidence)
    for name in ("Session.timeout", "Session.params"):
        assert found[name].status == "contradicted", (name, found[name].evidence)
