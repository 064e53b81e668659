"""Sections of a doc whose heading says they tell history ("Removed Features", "Removals for 5.0").

History is decided per section as well as per sentence: everything under "Removed in 2.0" names
things the code is right to lack, even where the sentence itself only describes the old API. A
"Deprecated" section is not history: it says the names still exist, and a name there that the code
already removed is a finding.
"""

from __future__ import annotations

import re

# "History" alone or "History of ...": "History Simplification" (git's) names a current feature.
_HISTORY_HEADING = re.compile(r"^(?:removed\b|removals?\b|historical\b|history(?:$|\s+of\b))", re.I)
_RST_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}\s*$")
_MARKDOWN_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def history_sections(text: str, *, markdown: bool) -> list[tuple[int, int]]:
    """The text ranges under a heading that says its section tells history.

    A section runs from its heading to the next heading of the same or a higher level; its
    subsections are part of it. reStructuredText levels follow the order the adornments first
    appear in; Markdown ones the number of `#` (a `===`/`---` underline is level 1/2).

    Args:
        text: The whole doc text.
        markdown: Whether the doc is Markdown (`#` headings, code fences) rather than
            reStructuredText.

    Returns:
        (start, end) character offsets, in document order.
    """
    spans: list[tuple[int, int]] = []
    open_level: int | None = None
    open_start = 0
    for offset, level, title in _headings(text, markdown=markdown):
        if open_level is not None and level <= open_level:
            spans.append((open_start, offset))
            open_level = None
        if open_level is None and _HISTORY_HEADING.match(title.strip("`*_ ")) is not None:
            open_level, open_start = level, offset
    if open_level is not None:
        spans.append((open_start, len(text)))
    return spans


def in_spans(offset: int, spans: list[tuple[int, int]]) -> bool:
    """Whether an offset falls inside one of the ranges."""
    return any(start <= offset < end for start, end in spans)


def _headings(text: str, *, markdown: bool) -> list[tuple[int, int, str]]:
    """(offset, level, title) of each heading, Markdown ATX or underlined (reStructuredText, setext)."""
    lines = text.split("\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    styles: list[tuple[str, bool]] = []
    found: list[tuple[int, int, str]] = []
    in_fence = False
    for index, line in enumerate(lines):
        if markdown and line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        if in_fence:
            continue
        if markdown and (atx := _MARKDOWN_HEADING.match(line)) is not None:
            found.append((starts[index], len(atx.group(1)), atx.group(2)))
            continue
        underline = _RST_ADORNMENT.match(lines[index + 1]) if index + 1 < len(lines) else None
        title = line.strip()
        if underline is None or not title or line[0].isspace() or _RST_ADORNMENT.match(line):
            continue
        if markdown:
            if underline.group(1) in "=-":
                found.append((starts[index], 1 if underline.group(1) == "=" else 2, title))
            continue
        if len(lines[index + 1].rstrip()) < len(title):
            continue
        overlined = index > 0 and lines[index - 1].strip() == lines[index + 1].strip()
        style = (underline.group(1), overlined)
        if style not in styles:
            styles.append(style)
        found.append((starts[index - 1] if overlined else starts[index], styles.index(style), title))
    return found
