"""Names the code lists as gone: `V2_REMOVED_KEYS = {'allow_mutation', …}`, `RENAMED = {'old': 'new'}`.

A library that drops or renames settings often keeps their old names, to turn users away with a
clear message: a constant whose name says so (REMOVED, RENAMED, OBSOLETE, DROPPED, RETIRED) holding
a literal set, list, tuple or dict of strings. The old names then still appear in the code, so a
doc naming one would otherwise be verified by that very mention. The list is the code's own word
that the name is gone, and a dict's value is what replaced it. A constant named DEPRECATED is not
read: a deprecated name still works.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

_RETIRED_COLLECTION = re.compile(
    r"^([A-Z0-9_]*?(?:REMOVED|RENAMED|OBSOLETE|DROPPED|RETIRED)[A-Z0-9_]*)[ \t]*(?::[^=\n]*)?=[ \t]*([\[{(])",
    re.M,
)
_CLOSING = {"[": "]", "{": "}", "(": ")"}


@dataclass(frozen=True)
class RetiredName:
    """One old name a retired-names constant lists."""

    line_offset: int
    """0-based line of the constant in the text it was read from."""
    collection: str
    """The constant's name (`V2_REMOVED_KEYS`)."""
    replacement: str | None
    """What a renaming dict maps it to (`populate_by_name`), else None."""


def retired_names(text: str) -> dict[str, RetiredName]:
    """The old names each retired-names constant of a piece of Python code lists.

    Args:
        text: Python code (a module or a chunk of one).

    Returns:
        Old name → where it is listed and what replaced it; constants that are no literal are skipped.
    """
    found: dict[str, RetiredName] = {}
    for match in _RETIRED_COLLECTION.finditer(text):
        literal = _bracketed(text, match.start(2))
        if literal is None:
            continue
        try:
            value = ast.literal_eval(literal)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            continue  # names or calls inside: not a plain list of old names
        offset = text.count("\n", 0, match.start())
        for name, replacement in _entries(value):
            found.setdefault(name, RetiredName(offset, match.group(1), replacement))
    return found


def _entries(value: object) -> list[tuple[str, str | None]]:
    if isinstance(value, dict):
        return [(k, v if isinstance(v, str) and v.isidentifier() else None) for k, v in value.items() if _name(k)]
    if isinstance(value, (set, frozenset, list, tuple)):
        return [(item, None) for item in value if _name(item)]
    return []


def _name(item: object) -> bool:
    return isinstance(item, str) and item.replace("-", "_").replace(".", "_").isidentifier()


def _bracketed(text: str, start: int) -> str | None:
    """The bracketed expression opening at `start`, up to its matching bracket (strings skipped)."""
    stack: list[str] = []
    index = start
    quote: str | None = None
    while index < len(text):
        char = text[index]
        if quote is not None:
            if char == "\\":
                index += 1
            elif char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#":
            newline = text.find("\n", index)
            index = len(text) if newline < 0 else newline
            continue
        elif char in _CLOSING:
            stack.append(_CLOSING[char])
        elif stack and char == stack[-1]:
            stack.pop()
            if not stack:
                return text[start : index + 1]
        index += 1
    return None
