"""The doc-claim findings as Markdown: the prompt's evidence block and the offline report's section."""

from __future__ import annotations

import unicodedata

from sextant.doc_claims.judging.finding import ClaimFinding
from sextant.doc_claims.report.summary import DocCheckReport

# Most telling first: what the code contradicts, what it outgrew, what it confirms, what it can't tell.
_PRIORITY = {"contradicted": 0, "outdated": 1, "verified": 2, "unverifiable": 3}


def render_findings_markdown(report: DocCheckReport, limit: int = 50) -> str:
    """Summarise a doc check as Markdown.

    Args:
        report: The result of check_docs.
        limit: How many findings to list at most (contradicted first, then outdated, verified,
            unverifiable); the rest are counted.

    Returns:
        A headline with totals, the docs likely outdated, the docs that check out, and one bullet
        per finding. Repository text (refs, paths) is cleaned of control and invisible characters
        and backticks, and shortened, so it cannot break out of the block it is put in.
    """
    totals = report.totals
    if totals.docs == 0:
        lines = ["No documentation in the index."]
        if report.skipped_docs:
            lines.append(f"Changelogs and release notes not checked: {_names(report.skipped_docs)}.")
        return "\n".join(lines) + "\n"
    lines = [
        f"Doc claims checked against the indexed code: {totals.docs} docs, {totals.claims} claims — "
        f"{totals.verified} verified, {totals.contradicted} contradicted, {totals.outdated} outdated, "
        f"{totals.unverifiable} unverifiable."
    ]
    if report.skipped_docs:
        lines.append(f"Changelogs and release notes not checked (history): {_names(report.skipped_docs)}.")
    suspect = [d for d in report.docs if d.likely_outdated]
    if suspect:
        lines.append(
            "Docs likely outdated: "
            + "; ".join(f"{_clean(d.doc)} ({d.contradicted} contradicted, {d.outdated} outdated)" for d in suspect)
            + "."
        )
    trusted = [d for d in report.docs if not d.likely_outdated and d.verified]
    if trusted:
        lines.append(
            "Docs whose claims check out: "
            + "; ".join(f"{_clean(d.doc)} ({d.verified} verified)" for d in trusted)
            + "."
        )
    ordered = sorted(report.findings, key=lambda f: (_PRIORITY[f.status], f.doc, f.line, f.ref))
    if ordered and limit > 0:
        lines.append("")
        lines.extend(_bullet(finding) for finding in ordered[:limit])
    if len(ordered) > max(limit, 0):
        lines.append(f"- … {len(ordered) - max(limit, 0)} more findings not shown")
    return "\n".join(lines) + "\n"


def _bullet(finding: ClaimFinding) -> str:
    return (
        f"- {_clean(finding.doc)}:{finding.line} `{_clean(finding.ref)}` ({finding.kind}) — "
        f"{finding.status}: {_clean(finding.evidence, 240)}"
    )


def _names(paths: list[str]) -> str:
    shown = ", ".join(_clean(p) for p in paths[:10])
    return shown + (f" and {len(paths) - 10} more" if len(paths) > 10 else "")


def _clean(text: str, limit: int = 120) -> str:
    """Repository text made safe to interpolate: no control/format characters, no backticks."""
    kept = "".join(
        " " if char in "\n\r\t" else char
        for char in text
        if unicodedata.category(char) not in {"Cc", "Cf", "Co", "Cs"} or char in "\n\r\t"
    )
    kept = kept.replace("`", "'")
    return kept if len(kept) <= limit else kept[: limit - 1] + "…"
