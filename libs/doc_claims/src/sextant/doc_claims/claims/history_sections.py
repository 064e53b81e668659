"""Parts of a doc that say they tell history: the page, a section, a list.

History is decided per section as well as per sentence: everything under "Removed in 2.0" names
things the code is right to lack, even where the sentence itself only describes the old API; so
does a section about "the previous mechanism" or about a project "Before 0.8" (a release before
which it ran). A "Deprecated" section is not history: it says the names still exist, and a name
there that the code already removed is a finding. A page whose title says it tells history
(`history_pages`) is history as a whole, and a list a history sentence introduces is history item
by item (`history_lists`), and the old-name column of a table mapping old names to new ones
("Setting name | Replace with") cell by cell (`history_tables`).
"""

from __future__ import annotations

import re

from sextant.doc_claims.claims.history_lists import history_led_lists
from sextant.doc_claims.claims.history_pages import title_tells_history
from sextant.doc_claims.claims.history_tables import old_name_cells

# "History" alone or "History of ...": "History Simplification" (git's) names a current feature.
_HISTORY_HEADING = re.compile(r"^(?:removed\b|removals?\b|historical\b|history(?:$|\s+of\b))", re.I)
# "Deprecated and Removed Code", "Dropped features": a section listing what is gone, though its
# heading does not start with the word. A page of "Deprecations and Removals" is not: it keeps the
# deprecated names, which still exist, in sections of their own.
_REMOVED_HEADING = re.compile(
    r"\bdeprecated\s+(?:and|&)\s+removed\b"
    r"|\b(?:removed|dropped)\s+(?:code|features?|apis?|modules?|functions?|classes|methods|options|settings)\b",
    re.I,
)
# A section about what came before a release ("Flask Before 0.8", "stance (pre 6.0)") or about the
# design that was replaced ("Shortcomings of the previous mechanism"); "Previous parameters" (the
# ones just shown) has no article and is no history.
_PAST_HEADING = re.compile(
    r"\b(?:before|prior to|pre|until)[- ](?:[A-Za-z][\w.]*[- ])?v?\d+(?:\.\d+)+\b|\bthe (?:previous|former|old)\b", re.I
)
_RST_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1{2,}\s*$")
_MARKDOWN_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def history_sections(text: str, *, markdown: bool) -> list[tuple[int, int]]:
    """The text ranges that say they tell history: the page by its title, sections, introduced lists,
    old-name cells of rename tables.

    A section runs from its heading to the next heading of the same or a higher level; its
    subsections are part of it. reStructuredText levels follow the order the adornments first
    appear in; Markdown ones the number of `#` (a `===`/`---` underline is level 1/2). A page
    whose first heading tells history is one range, the whole text.

    Args:
        text: The whole doc text.
        markdown: Whether the doc is Markdown (`#` headings, code fences) rather than
            reStructuredText.

    Returns:
        (start, end) character offsets, in document order.
    """
    headings = _headings(text, markdown=markdown)
    if headings and title_tells_history(headings[0][2]):
        return [(0, len(text))]
    spans: list[tuple[int, int]] = []
    open_level: int | None = None
    open_start = 0
    for offset, level, title in headings:
        if open_level is not None and level <= open_level:
            spans.append((open_start, offset))
            open_level = None
        if open_level is None and _heading_tells_history(title.strip("`*_ ")):
            open_level, open_start = level, offset
    if open_level is not None:
        spans.append((open_start, len(text)))
    return sorted(spans + history_led_lists(text) + old_name_cells(text))


def _heading_tells_history(title: str) -> bool:
    return any((_HISTORY_HEADING.match(title), _REMOVED_HEADING.search(title), _PAST_HEADING.search(title)))


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
        overlined = underline is not None and index > 0 and lines[index - 1].strip() == lines[index + 1].strip()
        # Only an overlined title may be inset (` "The Big Instance" Refactor` between two `===` lines).
        if underline is None or not title or (line[0].isspace() and not overlined) or _RST_ADORNMENT.match(line):
            continue
        if markdown:
            if underline.group(1) in "=-":
                found.append((starts[index], 1 if underline.group(1) == "=" else 2, title))
            continue
        if len(lines[index + 1].rstrip()) < len(title):
            continue
        style = (underline.group(1), overlined)
        if style not in styles:
            styles.append(style)
        found.append((starts[index - 1] if overlined else starts[index], styles.index(style), title))
    return found
