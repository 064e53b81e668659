"""The one-call check: every doc in the index against every piece of code in the index."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import msgspec

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_claims.checking import check_claims
from sextant.doc_claims.code_facts import CodeFactsCollector
from sextant.doc_claims.doc_texts import DocTextCollector
from sextant.doc_claims.extraction import extract_claims
from sextant.doc_claims.finding import ClaimFinding
from sextant.doc_claims.history_docs import is_history_doc


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


def check_docs(payloads: Iterable[ChunkPayload]) -> DocCheckReport:
    """Check every doc in the index against all the code in the index, in one pass over payloads.

    Args:
        payloads: Every chunk payload of one repository (docs and code, any order).

    Returns:
        The findings, a summary per doc and totals.
    """
    facts_collector, docs_collector = CodeFactsCollector(), DocTextCollector()
    for payload in payloads:
        facts_collector.add(payload)
        docs_collector.add(payload)
    facts = facts_collector.build()
    docs = docs_collector.build()
    checked = [doc for doc in docs if not is_history_doc(doc.path)]
    claims = [claim for doc in checked for claim in extract_claims(doc.path, doc.text, first_line=doc.first_line)]
    findings = check_claims(claims, facts, doc_dates={doc.path: doc.last_modified_at for doc in checked})
    summaries = [_summary(doc.path, doc.last_modified_at, findings) for doc in checked]
    return DocCheckReport(
        findings=findings,
        docs=summaries,
        totals=_totals(summaries, len(findings)),
        skipped_docs=[doc.path for doc in docs if is_history_doc(doc.path)],
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
