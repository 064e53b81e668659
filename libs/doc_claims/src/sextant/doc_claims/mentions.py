"""A spot in a doc where a name is written, before anyone judges whether it is a claim."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

MentionForm = Literal["inline", "link", "role", "shell", "env_file", "python_import", "example"]


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


def mask(text: str, start: int, end: int) -> str:
    """Blank out text[start:end] keeping newlines, so offsets and line numbers stay true."""
    blanked = "".join("\n" if char == "\n" else " " for char in text[start:end])
    return text[:start] + blanked + text[end:]
