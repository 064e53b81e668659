"""Splitting prose documents into sections at their headings (Markdown, reStructuredText, AsciiDoc)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath

from sextant.parsing.symbol import Symbol
from sextant.parsing.symbol_draft import SymbolDraft, contiguous_draft

MAX_HEADING_CHARS = 200

_MD_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*))?$")
_MD_ATX_CLOSE = re.compile(r"(?:^|[ \t]+)#+[ \t]*$")
_MD_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_MD_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_RST_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1+[ \t]*$")
_ADOC_HEADING = re.compile(r"^(={1,6})[ \t]+(\S.*)$")
_ADOC_DELIMITER = re.compile(r"^(-{4,}|\.{4,}|`{3,}|\+{4,}|_{4,}|/{4,}|={4,}|\*{4,})[ \t]*$")


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading found in a document."""

    row: int
    """First row of the heading (its overline or text line), 0-based."""
    last_row: int
    """Last row of the heading (its underline, for setext and reStructuredText)."""
    level: int
    title: str


def markdown_headings(lines: list[str]) -> list[Heading]:
    """Find ATX (`## Title`) and setext (underlined) headings outside fenced code and front matter.

    Args:
        lines: The document's lines.

    Returns:
        Headings in order.
    """
    headings: list[Heading] = []
    fence: str | None = None
    row = 0
    if lines and lines[0].strip() == "---":
        closing = next((index for index in range(1, len(lines)) if lines[index].strip() in ("---", "...")), None)
        row = closing + 1 if closing is not None else 0
    previous_is_text = False
    for index in range(row, len(lines)):
        line = lines[index]
        fence_match = _MD_FENCE.match(line)
        if fence is not None:
            if fence_match and fence_match.group(1)[0] == fence[0] and len(fence_match.group(1)) >= len(fence):
                fence = None
            previous_is_text = False
            continue
        if fence_match:
            fence = fence_match.group(1)
            previous_is_text = False
            continue
        atx = _MD_ATX.match(line)
        if atx:
            title = _MD_ATX_CLOSE.sub("", atx.group(2) or "").strip()
            headings.append(Heading(index, index, len(atx.group(1)), title))
            previous_is_text = False
            continue
        setext = _MD_SETEXT.match(line)
        if setext and previous_is_text:
            level = 1 if setext.group(1)[0] == "=" else 2
            headings.append(Heading(index - 1, index, level, lines[index - 1].strip()))
            previous_is_text = False
            continue
        previous_is_text = bool(line.strip()) and not line.startswith(("    ", "\t"))
    return headings


def rst_headings(lines: list[str]) -> list[Heading]:
    """Find reStructuredText section titles (underlined, optionally overlined); levels by first use.

    Args:
        lines: The document's lines.

    Returns:
        Headings in order.
    """
    headings: list[Heading] = []
    styles: dict[tuple[str, bool], int] = {}
    index = 0
    while index + 1 < len(lines):
        title = lines[index].rstrip()
        underline = _RST_ADORNMENT.match(lines[index + 1])
        overline = _RST_ADORNMENT.match(title)
        if overline and index + 2 < len(lines):
            middle = lines[index + 1].strip()
            closing = _RST_ADORNMENT.match(lines[index + 2])
            if middle and closing and closing.group(1) == overline.group(1) and not _RST_ADORNMENT.match(middle):
                style = (overline.group(1), True)
                level = styles.setdefault(style, len(styles) + 1)
                headings.append(Heading(index, index + 2, level, middle))
                index += 3
                continue
        if (
            underline
            and title.strip()
            and not title[0].isspace()
            and not overline
            and len(lines[index + 1].rstrip()) >= min(len(title), 3)
        ):
            style = (underline.group(1), False)
            level = styles.setdefault(style, len(styles) + 1)
            headings.append(Heading(index, index + 1, level, title.strip()))
            index += 2
            continue
        index += 1
    return headings


def asciidoc_headings(lines: list[str]) -> list[Heading]:
    """Find AsciiDoc `=` section titles outside delimited blocks (listings, literals, examples).

    Args:
        lines: The document's lines.

    Returns:
        Headings in order; the document title (`= Title`) is level 1.
    """
    headings: list[Heading] = []
    block: str | None = None
    for index, line in enumerate(lines):
        delimiter = _ADOC_DELIMITER.match(line)
        if delimiter:
            token = delimiter.group(1)
            if block is None:
                block = token
            elif token == block:
                block = None
            continue
        if block is not None:
            continue
        heading = _ADOC_HEADING.match(line)
        if heading:
            headings.append(Heading(index, index, len(heading.group(1)), heading.group(2).strip()))
    return headings


HEADING_FINDERS: dict[str, Callable[[list[str]], list[Heading]]] = {
    "markdown": markdown_headings,
    "rst": rst_headings,
    "asciidoc": asciidoc_headings,
}
"""Language → heading finder, for the document formats that are split into sections."""


def doc_section_drafts(path: str, lines: list[str], language: str) -> list[SymbolDraft]:
    """Split a document into `section` symbols, one per heading (plus the text before the first one).

    Args:
        path: Repository-relative path (names the preamble section).
        lines: The document's lines.
        language: A key of HEADING_FINDERS.

    Returns:
        Section drafts in order; empty when the document has no headings.
    """
    headings = HEADING_FINDERS[language](lines)
    if not headings:
        return []
    drafts: list[SymbolDraft] = []
    if any(line.strip() for line in lines[: headings[0].row]):
        name = PurePosixPath(path.replace("\\", "/")).name
        drafts.append(
            _section(lines, (0, headings[0].row - 1), name=name, parent=None, signature="", language=language)
        )
    open_headings: list[Heading] = []
    for position, heading in enumerate(headings):
        while open_headings and open_headings[-1].level >= heading.level:
            open_headings.pop()
        parent = open_headings[-1].title if open_headings else None
        last_row = headings[position + 1].row - 1 if position + 1 < len(headings) else len(lines) - 1
        signature = "\n".join(line.strip() for line in lines[heading.row : heading.last_row + 1])
        rows = (heading.row, last_row)
        drafts.append(_section(lines, rows, name=heading.title, parent=parent, signature=signature, language=language))
        open_headings.append(heading)
    return drafts


def _section(
    lines: list[str], rows: tuple[int, int], *, name: str, parent: str | None, signature: str, language: str
) -> SymbolDraft:
    first_row, last_row = rows
    symbol = Symbol(
        name=name[:MAX_HEADING_CHARS] or None,
        symbol_type="section",
        language=language,
        parent=parent[:MAX_HEADING_CHARS] if parent else None,
        signature=signature[:MAX_HEADING_CHARS],
        start_line=first_row + 1,
        end_line=last_row + 1,
        source="\n".join(lines[first_row : last_row + 1]),
    )
    return contiguous_draft(symbol)
