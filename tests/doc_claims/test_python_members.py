"""Members a Python class declares without a `name = …` line of their own: `__slots__` and unpacking.

The test builds a small package shaped like aiohttp's and attrs' classes and judges it as `sextant
docs-check` does: the instance attributes a class lists in `__slots__` (as strings) and each name
of an unpacking assignment in its body are its members; a function's local unpacking is not, and a
member it lacks is still a finding.
"""

from __future__ import annotations

from sextant.doc_claims import ClaimFinding, check_repository

from ..conftest import GitRepo


def findings_by_ref(git_repo: GitRepo) -> dict[str, ClaimFinding]:
    return {f.ref: f for f in check_repository(git_repo.root).findings if f.kind == "symbol"}


HELPERS_PY = '''\
"""Helpers."""


class ChainMapProxy:
    """A read-only view of several mappings."""

    __slots__ = (
        "maps",
        "default",
    )

    def __init__(self, maps):
        pass


class Counters:
    """Running totals."""

    __slots__ = ()

    sent, received = 0, 0


def parse_header(header):
    value, params = header.split(";", 1)
    return value
'''
API_DOC = """\
# API

`ChainMapProxy.maps` lists the mappings and `ChainMapProxy.default` the fallback;
`Counters.sent` and `Counters.received` count messages. `Counters.dropped` and `Counters.params`
are not kept.
"""


def test_slots_entries_and_unpacked_class_attributes_are_members(git_repo: GitRepo) -> None:
    git_repo.commit_files(
        "Add the helpers",
        {"acme/__init__.py": '"""Acme."""\n', "acme/helpers.py": HELPERS_PY, "docs/api.md": API_DOC},
    )

    found = findings_by_ref(git_repo)

    for name in ("ChainMapProxy.maps", "ChainMapProxy.default", "Counters.sent", "Counters.received"):
        assert found[name].status == "verified", (name, found[name].evidence)
    assert found["Counters.dropped"].status == "contradicted", found["Counters.dropped"].evidence
    # A function's local unpacking binds nothing of the classes beside it.
    assert found["Counters.params"].status == "contradicted", found["Counters.params"].evidence
