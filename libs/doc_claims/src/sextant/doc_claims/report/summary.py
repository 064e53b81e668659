"""How a doc check came out: a summary per doc and totals over all docs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import msgspec

from sextant.doc_claims.judging.finding import ClaimFinding


class DocSummary(msgspec.Struct, frozen=True, kw_only=True):
    """How one doc's claims fared."""

    doc: str
    """Path of the doc."""
    last_modified_at: str | None = None
    """The doc's last commit date, None when unknown."""
    verified: int = 0
    contradicted: int = 0
    outdated: int = 0
    unverifiable: int = 0
    likely_outdated: bool = False
    """True when any claim is contradicted or outdated: the doc needs a look before it is trusted."""


class CheckTotals(msgspec.Struct, frozen=True, kw_only=True):
    """Counts over every checked doc."""

    docs: int = 0
    """Docs checked (changelogs and release notes excluded)."""
    claims: int = 0
    verified: int = 0
    contradicted: int = 0
    outdated: int = 0
    unverifiable: int = 0
    likely_outdated_docs: int = 0


class DocCheckReport(msgspec.Struct, frozen=True, kw_only=True):
    """Every doc claim in the index, judged against the indexed code."""

    findings: list[ClaimFinding]
    """All findings, sorted by doc, line, ref."""
    docs: list[DocSummary]
    """One summary per checked doc (docs without claims included), sorted by path."""
    totals: CheckTotals
    """Counts over all checked docs."""
    skipped_docs: list[str] = msgspec.field(default_factory=list)
    """Changelogs and release notes: history, not held to the current code."""
    history_note: str | None = None
    """Why the repository's history was not (fully) searched, when it was not: a blob-less mirror,
    a spent time or byte budget. None when history was searched or never offered."""


def build_report(
    findings: list[ClaimFinding],
    doc_dates: Mapping[str, str | None],
    *,
    skipped_docs: list[str],
    history_note: str | None = None,
) -> DocCheckReport:
    """Put findings together with a summary per doc and totals.

    Args:
        findings: Every finding of the checked docs.
        doc_dates: Each checked doc (docs without claims included) → its last commit date.
        skipped_docs: Docs left out as history (changelogs, release notes).
        history_note: Why history was not searched, if it was not.

    Returns:
        The report.
    """
    summaries = [_summary(doc, doc_dates[doc], findings) for doc in sorted(doc_dates)]
    return DocCheckReport(
        findings=findings,
        docs=summaries,
        totals=_totals(summaries, len(findings)),
        skipped_docs=skipped_docs,
        history_note=history_note,
    )


def _summary(doc: str, last_modified_at: str | None, findings: list[ClaimFinding]) -> DocSummary:
    counts = Counter(f.status for f in findings if f.doc == doc)
    return DocSummary(
        doc=doc,
        last_modified_at=last_modified_at,
        verified=counts["verified"],
        contradicted=counts["contradicted"],
        outdated=counts["outdated"],
        unverifiable=counts["unverifiable"],
        likely_outdated=counts["contradicted"] > 0 or counts["outdated"] > 0,
    )


def _totals(summaries: list[DocSummary], claims: int) -> CheckTotals:
    return CheckTotals(
        docs=len(summaries),
        claims=claims,
        verified=sum(s.verified for s in summaries),
        contradicted=sum(s.contradicted for s in summaries),
        outdated=sum(s.outdated for s in summaries),
        unverifiable=sum(s.unverifiable for s in summaries),
        likely_outdated_docs=sum(s.likely_outdated for s in summaries),
    )
