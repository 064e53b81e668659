"""Overlapping line windows: the fallback for files that are not parsed into symbols."""

from __future__ import annotations

from sextant.parsing.symbol import Symbol
from sextant.parsing.symbol_draft import SymbolDraft, contiguous_draft

WINDOW_LINES = 60
"""Lines per fallback window: small enough for precise retrieval even under a large char budget."""
WINDOW_OVERLAP_LINES = 9
"""Lines shared by consecutive windows (15%), so that no statement is only ever seen cut in half."""


def line_window_drafts(lines: list[str], language: str) -> list[SymbolDraft]:
    """Cut a file into overlapping windows of lines; windows that hold only blank lines are left out.

    Args:
        lines: The file's lines.
        language: Language name for the windows ("text" when unknown).

    Returns:
        `window` drafts in order; together they contain every non-blank line.
    """
    drafts: list[SymbolDraft] = []
    start = 0
    while start < len(lines):
        end = min(start + WINDOW_LINES, len(lines))
        if any(line.strip() for line in lines[start:end]):
            symbol = Symbol(
                name=None,
                symbol_type="window",
                language=language,
                start_line=start + 1,
                end_line=end,
                source="\n".join(lines[start:end]),
            )
            drafts.append(contiguous_draft(symbol))
        if end == len(lines):
            break
        start = end - WINDOW_OVERLAP_LINES
    return drafts
