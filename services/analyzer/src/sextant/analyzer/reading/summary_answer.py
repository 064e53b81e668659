"""Read a summary answer into its two parts: purpose and summary, whatever headings the model chose."""

from __future__ import annotations

import re

from sextant.analyzer.reading.answer_sections import strip_outer_fence

# "## Purpose", "**Purpose:** text", "Purpose: text", "### Summary" ...
_PART = re.compile(r"^\s*(?:#{1,6}\s*)?[*_]*(purpose|summary)[*_]*\s*(?::[*_]*\s*(.*)|$)", re.IGNORECASE)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s")


def _first_paragraph(text: str) -> str:
    for paragraph in re.split(r"\n\s*\n", text.strip()):
        if paragraph.strip():
            return " ".join(paragraph.split())
    return ""


def parse_summary(answer: str) -> tuple[str, str]:
    """Split a model's summary answer into (purpose, summary).

    Args:
        answer: The model's text.

    Returns:
        The purpose and the summary. Missing parts are filled from what is there: no headings at
        all → the first paragraph is the purpose and the whole answer the summary; a summary
        without a purpose → its first sentence is the purpose.
    """
    parts: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in strip_outer_fence(answer).splitlines():
        match = _PART.match(line)
        if match:
            current = parts.setdefault(match.group(1).lower(), [])
            if rest := (match.group(2) or "").strip():
                current.append(rest)
            continue
        if current is not None:
            current.append(line)
    purpose = "\n".join(parts.get("purpose", [])).strip()
    summary = "\n".join(parts.get("summary", [])).strip()
    text = strip_outer_fence(answer)
    if not parts:
        return _first_paragraph(text), text
    if not summary:
        summary = purpose or text
    if not purpose:
        purpose = _SENTENCE_END.split(_first_paragraph(summary), maxsplit=1)[0]
    return purpose, summary
