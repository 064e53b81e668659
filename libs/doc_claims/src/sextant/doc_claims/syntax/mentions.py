"""A spot in a doc where a name is written, before anyone judges whether it is a claim."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

_NOT_NEWLINE = re.compile(r"[^\n]")
_LINE = re.compile(r"[^\n]*\n|[^\n]+$")

MentionForm = Literal[
    "inline", "link", "role", "shell", "env_file", "python_import", "example", "sample_name", "imported_use"
]


@dataclass(frozen=True)
class Mention:
    """Text found by a markup scanner, with where it starts and ends in the doc text."""

    offset: int
    """Offset of the mention in the doc text (its line is counted from here)."""
    end: int
    """Offset just after the mention, so the words that follow it can be read."""
    text: str
    """The literal, link target, role target or command line."""
    form: MentionForm
    """How the doc wrote it."""
    role: str = ""
    """The Sphinx role or directive (`func`, `envvar`, `include`), when there is one."""


def mask_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """Blank out many spans in one pass (masking them one by one would copy the text each time)."""
    if not spans:
        return text
    pieces: list[str] = []
    position = 0
    for span_start, span_end in sorted(spans):
        start = max(span_start, position)
        if span_end <= start:
            continue
        pieces.append(text[position:start])
        pieces.append(_NOT_NEWLINE.sub(" ", text[start:span_end]))
        position = span_end
    pieces.append(text[position:])
    return "".join(pieces)


def newline_lines(text: str) -> list[str]:
    """The text's lines, ends kept, as git, the CommonMark parser and a claim's line number count them.

    Only a newline ends a line: `str.splitlines` also breaks at a form feed (a page break), U+2028 and
    other separators, which would put every later line off by one.

    Args:
        text: A doc text.

    Returns:
        Its lines, each with its newline (the last one without, when the text does not end with one).
    """
    return _LINE.findall(text)
