"""The doc-claim findings as Markdown: the prompt's evidence block and the offline report's section."""

from __future__ import annotations

import unicodedata
from collections import defaultdict

from sextant.doc_claims.judging.finding import ClaimFinding
from sextant.doc_claims.report.secrets import redact_secrets
from sextant.doc_claims.report.summary import DocCheckReport

_ALARMS = ("contradicted", "outdated")
_TRUSTED_SHOWN = 25


def render_findings_markdown(report: DocCheckReport, limit: int = 50, *, against: str = "the indexed code") -> str:
    """Summarise a doc check as Markdown: what a maintainer should fix first, then what checks out.

    Args:
        report: The result of check_docs or check_repository.
        limit: How many doc lines with alarms to list at most (contradicted first, then outdated);
            the rest are counted.
        against: What the claims were checked against, for the headline ("the code at 1a2b3c4d5e6f"
            when git was read in place, as `sextant docs-check` does).

    Returns:
        A headline with totals, the docs likely outdated, the docs that check out (verified claims
        as a count per doc, never a list), then one bullet per doc line with an alarm: where the
        name was defined, what removed it and what replaced it, or what changed in its definition.
        Repository text (refs, paths) is cleaned of control and invisible characters and backticks,
        and shortened, so it cannot break out of the block it is put in; credentials are masked.
    """
    totals = report.totals
    if totals.docs == 0:
        lines = ["No documentation in the index."]
        if report.skipped_docs:
            lines.append(f"Changelogs and release notes not checked: {_names(report.skipped_docs)}.")
        return "\n".join(lines) + "\n"
    lines = [
        f"Doc claims checked against {against}: {totals.docs} docs, {totals.claims} claims — "
        f"{totals.verified} verified, {totals.contradicted} contradicted, {totals.outdated} outdated, "
        f"{totals.unverifiable} unverifiable."
    ]
    if report.skipped_docs:
        lines.append(f"Changelogs and release notes not checked (history): {_names(report.skipped_docs)}.")
    if report.history_note:
        lines.append(f"History: {_clean(report.history_note, 240)}.")
    suspect = [d for d in report.docs if d.likely_outdated]
    if suspect:
        lines.append(
            "Docs likely outdated: "
            + "; ".join(f"{_clean(d.doc)} ({d.contradicted} contradicted, {d.outdated} outdated)" for d in suspect)
            + "."
        )
    trusted = [d for d in report.docs if not d.likely_outdated and d.verified]
    if trusted:
        shown = sorted(trusted, key=lambda d: (-d.verified, d.doc))[:_TRUSTED_SHOWN]
        more = len(trusted) - len(shown)
        lines.append(
            "Docs whose claims check out: "
            + "; ".join(f"{_clean(d.doc)} ({d.verified} verified)" for d in sorted(shown, key=lambda d: d.doc))
            + (f"; and {more} more docs" if more else "")
            + "."
        )
    bullets = alarm_lines(report.findings)
    if bullets and limit > 0:
        lines.append("")
        lines.extend(bullets[:limit])
    if len(bullets) > max(limit, 0):
        lines.append(f"- … {len(bullets) - max(limit, 0)} more doc lines with findings not shown")
    return "\n".join(lines) + "\n"


def alarm_lines(findings: list[ClaimFinding]) -> list[str]:
    """One Markdown bullet per doc line with an alarm: contradicted lines first, then outdated.

    Args:
        findings: Findings of any status (only contradicted and outdated ones are shown).

    Returns:
        Bullets in order of status, doc and line; several alarms on one doc line share a bullet.
    """
    grouped: dict[tuple[int, str, int], list[ClaimFinding]] = defaultdict(list)
    for finding in findings:
        if finding.status in _ALARMS:
            grouped[(_ALARMS.index(finding.status), finding.doc, finding.line)].append(finding)
    bullets = []
    for (rank, doc, line), group in sorted(grouped.items()):
        status = _ALARMS[rank]
        refs = ", ".join(f"`{_clean(f.ref)}` ({f.kind})" for f in group)
        if len(group) == 1:
            detail = _clean(describe(group[0]), 300)
        else:
            detail = "; ".join(f"{_clean(f.ref, 60)}: {_clean(describe(f), 160)}" for f in group)
        bullets.append(f"- {_clean(doc)}:{line} {refs} — {status}: {detail}")
    return bullets


def describe(finding: ClaimFinding) -> str:
    """The evidence of one finding in words, with its replacement when the evidence names one.

    Args:
        finding: A finding.

    Returns:
        The evidence sentence (`defined in … until …; removed by …; now X`).
    """
    text = finding.evidence
    if finding.replacement and "now " not in text:
        text += f"; now {finding.replacement}"
    return text


def _names(paths: list[str]) -> str:
    shown = ", ".join(_clean(p) for p in paths[:10])
    return shown + (f" and {len(paths) - 10} more" if len(paths) > 10 else "")


def _clean(text: str, limit: int = 120) -> str:
    """Repository text made safe to interpolate: no credentials, no control/format characters, no backticks."""
    text = redact_secrets(text)
    kept = "".join(
        " " if char in "\n\r\t" else char
        for char in text
        if unicodedata.category(char) not in {"Cc", "Cf", "Co", "Cs"} or char in "\n\r\t"
    )
    kept = kept.replace("`", "'")
    return kept if len(kept) <= limit else kept[: limit - 1] + "…"
