"""`sextant show` says where the stored output it prints comes from: run, commit, when, revision or not."""

from __future__ import annotations

import msgspec

from sextant.cli.output_origin import origin_line
from sextant.contracts import AnalysisCompleted, Provenance, RepoRef, SummaryCompleted
from sextant.gitsource.history_blobs import UNDER_WAY_NOTE

from ..support.events import event

REPO = RepoRef.for_url("https://example.com/acme/shop.git")
WHERE = f"of {REPO.repo_key} at commit 0123456789ab, written 2026-12-04T18:56:18Z by run run-12345678"


WRITTEN = "2026-12-04T18:56:18Z"


def analysis(**fields: object) -> AnalysisCompleted:
    made = event(AnalysisCompleted, REPO, "run-1234567890", "x", markdown="# x", head_sha="0123456789abcdef", **fields)
    return msgspec.structs.replace(made, occurred_at=WRITTEN)


def test_an_analysis_names_its_run_commit_and_time() -> None:
    assert origin_line(analysis()) == f"analysis {WHERE}"


def test_a_revision_and_a_first_judgement_without_history_are_told_apart() -> None:
    revised = origin_line(analysis(provenance=Provenance(revision_of="fedcba9876543210")))
    assert revised == f"analysis {WHERE}; it revises the run's first analysis (fedcba987654): " + (
        "doc claims judged again with the history"
    )
    early = origin_line(analysis(provenance=Provenance(doc_history_note=UNDER_WAY_NOTE)))
    assert early.endswith(
        "; its doc claims were judged without the whole history (see Provenance): a revision may follow"
    )


def test_a_reused_summary_says_since_when_its_text_stands() -> None:
    made = event(SummaryCompleted, REPO, "run-1234567890", "s", purpose="p", summary="s", head_sha="0123456789abcdef")
    summary = msgspec.structs.replace(made, occurred_at=WRITTEN, unchanged_since="2026-11-01T10:00:00Z")
    assert origin_line(summary) == f"summary {WHERE}; inputs unchanged, its text stands since 2026-11-01T10:00:00Z"
