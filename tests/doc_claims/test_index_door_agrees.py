"""The analyzer's door (index payloads) judges a repository as `sextant docs-check` (git in place) does."""

from __future__ import annotations

import msgspec

from sextant.doc_claims import check_docs, check_repository
from sextant.doc_claims.judging.repository_history import RepositoryHistory
from sextant.doc_claims.sources.repository import read_snapshot
from sextant.gitsource.history_access import open_history

from ..conftest import GitRepo
from .conftest import MakeChunk
from .test_history_evidence import renamed_history

CHANGES = "Version 0.2\n-----------\n\n- Renamed ``SyncSession`` to ``Session``.\n"


def test_a_name_a_plain_text_changelog_mentions_is_still_contradicted(git_repo: GitRepo, chunk: MakeChunk) -> None:
    renamed_history(git_repo)
    git_repo.write("CHANGES", CHANGES)
    git_repo.commit("Changelog", date="2019-07-01T10:00:00+00:00")
    opened = open_history(git_repo.root)
    snapshot = read_snapshot(opened)
    # the indexer keeps an extension-less changelog as plain text chunks; the repository door never reads it
    changelog = msgspec.structs.replace(chunk("CHANGES", CHANGES), language="text")

    indexed = check_docs([*snapshot.payloads, changelog], history=RepositoryHistory(opened, snapshot.doc_commits))
    in_place = check_repository(git_repo.root)

    stale = next(f for f in indexed.findings if f.ref == "SyncSession")
    assert stale.status == "contradicted", stale.evidence
    assert [(f.ref, f.status) for f in indexed.findings] == [(f.ref, f.status) for f in in_place.findings]


def test_a_name_a_data_file_mentions_is_still_contradicted(git_repo: GitRepo, chunk: MakeChunk) -> None:
    renamed_history(git_repo)
    records = '{"client": "SyncSession", "retries": 3}\n'
    git_repo.write("tests/fixtures/clients.jsonl", records)
    git_repo.commit("Fixtures", date="2019-07-01T10:00:00+00:00")
    opened = open_history(git_repo.root)
    snapshot = read_snapshot(opened)
    # the indexer keeps a file of no known language as plain text windows; the repository door never reads it
    fixture = msgspec.structs.replace(chunk("tests/fixtures/clients.jsonl", records), language="text")

    indexed = check_docs([*snapshot.payloads, fixture], history=RepositoryHistory(opened, snapshot.doc_commits))
    in_place = check_repository(git_repo.root)

    stale = next(f for f in indexed.findings if f.ref == "SyncSession")
    assert stale.status == "contradicted", stale.evidence
    assert [(f.ref, f.status) for f in indexed.findings] == [(f.ref, f.status) for f in in_place.findings]
