"""A symbol together with the file line each of its source lines came from (internal to the package)."""

from __future__ import annotations

from dataclasses import dataclass

from sextant.parsing.symbol import Symbol

ELIDED = 0
"""Line number of a synthetic `...` line that stands for an elided member body."""


@dataclass(frozen=True, slots=True)
class SymbolDraft:
    """A symbol and, per line of its source, the 1-based file line it is (ELIDED for a `...` line)."""

    symbol: Symbol
    line_numbers: tuple[int, ...]


def contiguous_draft(symbol: Symbol) -> SymbolDraft:
    """Pair a symbol whose source is the contiguous file lines start_line..end_line with its numbers.

    Args:
        symbol: A symbol whose source is an unelided slice of the file.

    Returns:
        The draft.
    """
    return SymbolDraft(symbol, tuple(range(symbol.start_line, symbol.end_line + 1)))
