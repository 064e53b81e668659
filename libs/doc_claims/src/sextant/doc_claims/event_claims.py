"""Findings as the events carry them: each ClaimFinding as the contracts' DocClaim, field by field."""

from __future__ import annotations

from collections.abc import Iterable

from sextant.contracts import DocClaim
from sextant.doc_claims.judging.finding import ClaimFinding
from sextant.doc_claims.report.secrets import redact_finding

STATUS_ORDER = ("contradicted", "outdated", "unverifiable", "verified")
"""How findings are listed everywhere a person or a model reads them: what needs fixing first."""


def doc_claim(finding: ClaimFinding) -> DocClaim:
    """The event's form of one finding.

    Args:
        finding: A doc-claim finding.

    Returns:
        The DocClaim an AnalysisCompleted lists, with any credential the doc wrote out masked.
    """
    finding = redact_finding(finding)
    return DocClaim(
        doc=finding.doc,
        line=finding.line,
        ref=finding.ref,
        kind=finding.kind,
        status=finding.status,
        evidence=finding.evidence,
        removed_by=finding.removed_by,
        removed_at=finding.removed_at,
        replacement=finding.replacement,
        changed=finding.changed,
    )


def doc_claims(findings: Iterable[ClaimFinding]) -> list[DocClaim]:
    """The event's form of findings, in the order the report reads: what needs fixing first.

    Args:
        findings: Doc-claim findings (a report's).

    Returns:
        One DocClaim per finding: contradicted, then outdated, then unverifiable, then verified;
        by doc and line within each (the order is stable, so a subscriber can show the head of the list).
    """
    ordered = sorted(findings, key=lambda f: (STATUS_ORDER.index(f.status), f.doc, f.line))
    return [doc_claim(finding) for finding in ordered]
