"""Split a model's Markdown into its `## ` sections, tolerating numbering, extra and missing sections."""

from __future__ import annotations

import re

from sextant.analyzer.report_shape.section_titles import SECTION_TITLES

_HEADING = re.compile(r"^##(?!#)\s*(.+?)\s*#*\s*$")
_FENCE_LINE = re.compile(r"^\s*(```|~~~)")
_OUTER_FENCE = re.compile(r"\A\s*```[a-zA-Z]*\n(.*)\n```\s*\Z", re.DOTALL)
_NUMBERING = re.compile(r"^(?:\d+[.)]|[IVX]+\.)\s*")
_DECORATION = re.compile(r"^[*_`\s]+|[*_`:\s]+$")
_CANONICAL = {title.lower(): title for title in SECTION_TITLES}


def strip_outer_fence(text: str) -> str:
    """Unwrap an answer that a model put inside one ```markdown fence.

    Args:
        text: The model's answer.

    Returns:
        The inner text when the whole answer is one fenced block, else the answer stripped.
    """
    match = _OUTER_FENCE.match(text)
    return (match.group(1) if match else text).strip()


def canonical_title(raw: str) -> str:
    """Map a heading as a model wrote it onto the required title it means, when it means one.

    "7. Documentation accuracy", "**Dependencies and Risks**" and "Tech stack:" all map to the
    required titles; anything else is returned cleaned, as written.

    Args:
        raw: The heading text after `## `.

    Returns:
        The canonical title or the cleaned heading.
    """
    cleaned = _DECORATION.sub("", _NUMBERING.sub("", _DECORATION.sub("", raw.strip())))
    key = re.sub(r"\s+", " ", cleaned.lower().replace(" and ", " & "))
    return _CANONICAL.get(key, cleaned)


def split_sections(markdown: str) -> dict[str, str]:
    """Section title → its text, for every level-2 heading outside code blocks, in order.

    Text before the first heading is left out (it stays in the Markdown). A title that appears twice
    keeps both texts, joined by a blank line.

    Args:
        markdown: The analysis.

    Returns:
        The sections, with required titles in their canonical spelling.
    """
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    in_code = False
    for line in markdown.splitlines():
        if _FENCE_LINE.match(line):
            in_code = not in_code
        heading = None if in_code else _HEADING.match(line)
        if heading:
            title = canonical_title(heading.group(1))
            current = sections.setdefault(title, [])
            if current:
                current.append("")
            continue
        if current is not None:
            current.append(line)
    return {title: "\n".join(lines).strip() for title, lines in sections.items()}


def missing_sections(sections: dict[str, str]) -> list[str]:
    """The required titles a model left out (or left empty), in the required order."""
    return [title for title in SECTION_TITLES if not sections.get(title)]
