"""A name a declaration's body defines (a field, a method, a package var), read from a chunk's text."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class DeclaredName:
    """One name a declaration defines, where in the text it was read from, and what it is."""

    offset: int
    """0-based line offset in the text it was read from."""
    name: str
    kind: str
    """`field` or `method` of a type; `variable` or `constant` of a package."""
