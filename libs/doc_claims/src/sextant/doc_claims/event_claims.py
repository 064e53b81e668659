"""Findings as the events carry them: each ClaimFinding as the contracts' DocClaim, field by field."""

from __future__ import annotations

from collections.abc import Iterable

from sextant.contracts import DocClaim
from sextant.doc_claims.judging.finding import ClaimFinding


def doc_claim(finding: ClaimFinding) -> DocClaim:
    """The event's form of one finding.

    Args:
        finding: A doc-claim finding.

    Returns:
        The DocClaim an AnalysisCompleted lists.
    """
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
    """The event's form of findings, in their order.

    Args:
        findings: Doc-claim findings (a report's, ordered as it lists them).

    Returns:
        One DocClaim per finding.
    """
    return [doc_claim(finding) for finding in findings]
