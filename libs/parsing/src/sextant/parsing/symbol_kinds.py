"""Which symbol types name a definition a reader can look up, and which only cut a file into pieces."""

from __future__ import annotations

from typing import Final

NON_DEFINITION_SYMBOL_TYPES: Final = frozenset({"window", "section", "file", "module", "document"})
"""Symbol types that are not definitions: line windows, doc sections, and a file's module outline.
A chunk of one of these has a name (a heading, a file name) but defines nothing by that name."""


def is_definition(symbol_type: str | None) -> bool:
    """Whether a chunk's symbol type is a definition (function, class, table, block, ...).

    Args:
        symbol_type: The chunk's ``symbol_type``; None for none.

    Returns:
        False for None and for NON_DEFINITION_SYMBOL_TYPES.
    """
    return symbol_type is not None and symbol_type not in NON_DEFINITION_SYMBOL_TYPES
