"""Check documentation claims against the code, before any model sees them.

The package is its pipeline (see `pipeline`): `syntax` finds mentions in each markup, `claims`
turns mentions into claims, `judging` holds claims against the code's facts and history, `report`
summarises and renders. `check_docs(payloads)` checks an index; `check_repository(path, commit=...)`
checks a git commit directly. The parts stand alone too: `extract_claims` serves the reviewer's
doc-drift check, `CodeFacts` and `resolve` judge single claims, `render_findings_markdown` writes
the evidence block. The rules and their reasons are in docs/doc-claims.md.
"""

from sextant.doc_claims.claims.claim import Claim, ClaimKind
from sextant.doc_claims.claims.extraction import extract_claims
from sextant.doc_claims.claims.history_docs import is_history_doc
from sextant.doc_claims.event_claims import doc_claim, doc_claims
from sextant.doc_claims.judging.checking import Resolution, check_claims, resolve
from sextant.doc_claims.judging.code_facts import CodeFacts, CodeFactsCollector, Site, SymbolSite
from sextant.doc_claims.judging.finding import ClaimFinding, ClaimStatus
from sextant.doc_claims.judging.repository_history import HistoryLocations, RepositoryHistory
from sextant.doc_claims.pipeline import check_docs, check_repository
from sextant.doc_claims.report.fixes import suggest_fixes
from sextant.doc_claims.report.rendering import alarm_lines, describe, render_findings_markdown
from sextant.doc_claims.report.summary import CheckTotals, DocCheckReport, DocSummary, build_report
from sextant.doc_claims.sources.doc_texts import DocText, reassemble_docs

__all__ = [
    "CheckTotals",
    "Claim",
    "ClaimFinding",
    "ClaimKind",
    "ClaimStatus",
    "CodeFacts",
    "CodeFactsCollector",
    "DocCheckReport",
    "DocSummary",
    "DocText",
    "HistoryLocations",
    "RepositoryHistory",
    "Resolution",
    "Site",
    "SymbolSite",
    "alarm_lines",
    "build_report",
    "check_claims",
    "check_docs",
    "check_repository",
    "describe",
    "doc_claim",
    "doc_claims",
    "extract_claims",
    "is_history_doc",
    "reassemble_docs",
    "render_findings_markdown",
    "resolve",
    "suggest_fixes",
]
