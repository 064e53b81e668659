"""The analysis judges doc claims with the repository's history: removed names come with what removed them.

The chain runs on a real nats-server and the embedded store over a repository built here and read in
place, where a design doc names a function a later commit renamed. A repository known only through
the indexer's blob-less mirror is judged at its head alone: a bare absent name is no alarm there, and
the findings say why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from sextant.analyzer.config import AnalyzerSettings
from sextant.contracts import DocClaim, RepoRef
from sextant.doc_claims import ClaimFinding, HistoryLocations, check_docs, doc_claim
from sextant.doc_claims.event_claims import STATUS_ORDER
from sextant.doc_claims.sources.repository import read_snapshot
from sextant.gitsource import RepoMirror, RepoSource
from sextant.gitsource.history_access import open_history

from .test_end_to_end import analyse_through_the_bus, build_repository


async def test_a_function_a_later_commit_removed_is_contradicted_with_its_removal(
    git_repo: Any, tmp_path: Path, letter_embedder: Any
) -> None:
    build_repository(git_repo)
    removal = git_repo.git("log", "-1", "--format=%h").strip()
    env = {
        "INDEX_FILE_RECENCY": "true",
        "SEXTANT_HOME": str(tmp_path / "home"),
        "SEXTANT_ALLOW_LOCAL_REPOS": "true",
        "LLM_PROVIDER": "none",
    }
    repo = RepoRef.for_url(str(git_repo.root), branch="main")  # a local path: read in place
    analysis, _ = await analyse_through_the_bus(repo, env, letter_embedder, tmp_path)

    claims = {(c.doc, c.ref): c for c in analysis.doc_claims}
    stale = claims[("docs/design.md", "create_legacy_session()")]
    assert stale.status == "contradicted"
    assert (stale.removed_by, stale.removed_at) == (f"{removal} rename and document", "2026-05-01")
    assert stale.evidence.startswith("defined in app/sessions.py until 2026-05-01; removed by ")
    assert claims[("docs/usage.md", "open_session()")].status == "verified"
    assert f"removed by {removal} 'rename and document'" in analysis.sections["Documentation Accuracy"]
    ranks = [STATUS_ORDER.index(c.status) for c in analysis.doc_claims]
    assert ranks == sorted(ranks)  # the event lists what needs fixing first, as the section does


async def test_with_history_turned_off_a_bare_absent_name_is_left_open_and_says_why(
    git_repo: Any, tmp_path: Path, letter_embedder: Any
) -> None:
    build_repository(git_repo)
    env = {
        "INDEX_FILE_RECENCY": "true",
        "SEXTANT_HOME": str(tmp_path / "home"),
        "SEXTANT_ALLOW_LOCAL_REPOS": "true",
        "LLM_PROVIDER": "none",
        "ANALYSIS_DOC_HISTORY": "false",
    }
    repo = RepoRef.for_url(str(git_repo.root), branch="main")
    analysis, _ = await analyse_through_the_bus(repo, env, letter_embedder, tmp_path)

    claims = {(c.doc, c.ref): c for c in analysis.doc_claims}
    stale = claims[("docs/design.md", "create_legacy_session()")]
    assert stale.status == "unverifiable"  # only history tells a removed name from one never ours
    assert stale.removed_by is None
    assert "turned off (ANALYSIS_DOC_HISTORY=false)" in stale.evidence
    assert claims[("docs/usage.md", "open_session()")].status == "verified"


def test_through_a_blob_less_mirror_the_head_alone_judges_and_the_findings_say_why(
    git_repo: Any, tmp_path: Path
) -> None:
    build_repository(git_repo)
    payloads = read_snapshot(open_history(git_repo.root)).payloads
    locations = HistoryLocations(tmp_path / "mirrors")
    ref = RepoRef.for_url(git_repo.url, branch="main")

    unsynced = check_docs(payloads, history=locations.open(ref, None))
    assert unsynced.history_note == "history not read: this machine holds no mirror of the repository"

    RepoMirror(tmp_path / "mirrors").sync(RepoSource(url=git_repo.url, branch="main"))
    report = check_docs(payloads, history=locations.open(ref, None))

    assert report.history_note is not None
    assert "blob-less" in report.history_note
    stale = next(f for f in report.findings if f.ref == "create_legacy_session()")
    assert stale.status == "unverifiable"  # without history a bare absent name is no alarm
    assert stale.removed_by is None
    assert "absent at the head; history not searched: a blob-less clone" in stale.evidence


def test_every_finding_field_reaches_the_event() -> None:
    finding = ClaimFinding(
        doc="docs/a.md",
        line=3,
        ref="SyncSession",
        kind="symbol",
        status="contradicted",
        evidence="defined in acme/session.py until 2019-05-11",
        removed_by="1a2b3c4 Rename SyncSession to Session",
        removed_at="2019-05-11",
        replacement="Session",
        changed="lost parameter x",
    )
    claim = doc_claim(finding)
    assert isinstance(claim, DocClaim)
    assert msgspec.structs.asdict(claim) == msgspec.structs.asdict(finding)


def test_the_analyzer_reads_history_where_the_indexer_keeps_it_unless_told_not_to(tmp_path: Path) -> None:
    env = {"SEXTANT_HOME": str(tmp_path), "SEXTANT_ALLOW_LOCAL_REPOS": "true"}
    assert AnalyzerSettings.from_env(env).doc_history == HistoryLocations(tmp_path / "mirrors", allow_local=True)
    assert AnalyzerSettings.from_env({**env, "ANALYSIS_DOC_HISTORY": "false"}).doc_history is None
