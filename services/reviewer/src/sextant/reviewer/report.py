"""The review as Markdown: findings, doc drift, and the context bundle with its ages and demotions."""

from __future__ import annotations

from collections.abc import Sequence

from sextant.contracts import ContextItem, ReviewFinding
from sextant.doc_rules import calendar_day
from sextant.llm import clean_untrusted_line

_SEARCH_WORDS = {
    "hybrid": "hybrid search (dense + sparse)",
    "sparse-only": "sparse-only search (dense vectors not complete yet)",
}


def code_cell(text: str) -> str:
    """Repository text (a path) as an inline code span on one line that cannot break a table row."""
    return "`" + clean_untrusted_line(text).replace("`", "'").replace("|", "\\|") + "`"


def render_review(
    *,
    title: str,
    findings: Sequence[ReviewFinding],
    context: Sequence[ContextItem],
    median_code: str | None,
    model: str,
    warnings: Sequence[str],
    search: str = "hybrid",
) -> str:
    """A readable review.

    Args:
        title: Title of the change.
        findings: Review findings and doc drift.
        context: Provenance of every retrieved chunk.
        median_code: Median date of the retrieved code.
        model: The model used, or "none".
        warnings: Problems that did not stop the review.
        search: How the context was searched ("hybrid" or "sparse-only").

    Returns:
        Markdown.
    """
    lines = [f"# Review: {title or 'change'}", ""]
    if model == "none":
        lines += [
            "_No language model was used: this review lists what the index shows — docs this change "
            "makes stale, and the context a reviewer should read — not an opinion on the code._",
            "",
        ]
    for warning in warnings:
        lines.append(f"> warning: {warning}")
    review = [f for f in findings if f.kind != "doc_drift"]
    drift = [f for f in findings if f.kind == "doc_drift"]
    if review:
        lines += ["## Findings", ""]
        lines += [
            f"- **{f.severity}** {code_cell(f.path + (':' + str(f.line) if f.line else ''))} {f.message}"
            for f in review
        ]
        lines.append("")
    lines += ["## Doc drift", ""]
    lines += [f"- {code_cell(f'{f.path}:{f.line}')} {f.message}" for f in drift] or [
        "- No doc references what this change removes."
    ]
    kept = sum(1 for item in context if item.kept)
    lines += [
        "",
        "## Context",
        "",
        f"{len(context)} chunks retrieved by {_SEARCH_WORDS.get(search, search)}, {kept} kept; "
        f"median date of retrieved code: {calendar_day(median_code) or 'unknown'}.",
        "",
        "| kept | kind | chunk | last modified | score | why |",
        "|---|---|---|---|---|---|",
    ]
    for item in context:
        score = "-" if item.score is None else f"{item.score:.2f}"
        date = calendar_day(item.last_modified_at) or "unknown"
        where = code_cell(f"{item.path}:{item.start_line}-{item.end_line}")
        why = clean_untrusted_line(item.reason).replace("|", "\\|")
        lines.append(f"| {'yes' if item.kept else 'no'} | {item.kind} | {where} | {date} | {score} | {why} |")
    return "\n".join(lines) + "\n"
