"""The analyzer's road through a blob-less mirror the indexer hydrated: history judges as in a full repository.

The mirror is a real blob-less clone made by `RepoMirror` over file://, hydrated by
`RepoMirror.hydrate_history` as the indexer does after its sync; the analysis opens it through
`HistoryLocations`, pinned to the indexed commit, and never fetches.
"""

from __future__ import annotations

from pathlib import Path

from sextant.contracts import RepoRef
from sextant.doc_claims import HistoryLocations, check_docs
from sextant.doc_claims.sources.repository import read_snapshot
from sextant.gitsource import RepoMirror, RepoSource
from sextant.gitsource.history_access import open_history

from ..conftest import GitRepo
from .test_blobless_fallback import sessions_history

FILLER_MODULES = 100
"""Source files beside the sessions, so their past blobs outnumber one fetch batch."""


def hydrated_setup(git_repo: GitRepo, tmp_path: Path) -> tuple[RepoMirror, RepoSource, HistoryLocations, RepoRef]:
    sessions_history(git_repo)
    git_repo.commit_files(
        "Add helpers",
        {f"acme/helpers/h{index:03}.py": f"HELPER_{index} = {index}\n" for index in range(FILLER_MODULES)},
        date="2019-06-01T10:00:00+00:00",
    )
    mirrors = tmp_path / "mirrors"
    return (
        RepoMirror(mirrors),
        RepoSource(url=git_repo.url, branch="main"),
        HistoryLocations(mirrors),
        RepoRef.for_url(git_repo.url, branch="main"),
    )


def test_a_hydrated_mirror_names_the_commit_that_removed_a_name(git_repo: GitRepo, tmp_path: Path) -> None:
    mirror, source, locations, ref = hydrated_setup(git_repo, tmp_path)
    rename = git_repo.git("log", "-1", "--format=%h", "--grep=Rename").strip()
    payloads = read_snapshot(open_history(git_repo.root)).payloads
    state = mirror.sync(source)
    assert open_history(Path(state.path)).partial

    hydration = mirror.hydrate_history(source, state.head_sha)
    assert hydration is not None
    assert hydration.complete
    report = check_docs(payloads, history=locations.open(ref, state.head_sha))

    by_ref = {f.ref: f for f in report.findings}
    removed = by_ref["SyncSession()"]
    assert removed.status == "contradicted"
    assert removed.removed_by == f"{rename} Rename SyncSession to Session"
    assert removed.evidence.startswith("defined in acme/session.py until 2019-05-11; removed by ")
    assert by_ref["NeverWritten"].status == "unverifiable"
    assert "no past definition of NeverWritten" in by_ref["NeverWritten"].evidence
    assert report.history_note is None

    again = mirror.hydrate_history(source, mirror.sync(source).head_sha)
    assert again is not None
    assert (again.complete, again.missing, again.fetched, again.fetches) == (True, 0, 0, 0)


def test_a_budget_too_small_leaves_the_head_alone_to_judge_and_the_note_says_so(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    mirror, source, locations, ref = hydrated_setup(git_repo, tmp_path)
    payloads = read_snapshot(open_history(git_repo.root)).payloads
    state = mirror.sync(source)

    hydration = mirror.hydrate_history(source, state.head_sha, max_bytes=1)
    assert hydration is not None
    assert not hydration.complete
    report = check_docs(payloads, history=locations.open(ref, state.head_sha))

    removed = next(f for f in report.findings if f.ref == "SyncSession()")
    assert removed.status == "unverifiable"
    assert "absent at the head; history not searched: a blob-less clone holds only part" in removed.evidence
    assert report.history_note is not None
    assert "budget" in report.history_note
