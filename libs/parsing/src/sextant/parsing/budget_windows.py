"""Splitting a symbol's source lines into overlapping windows that each fit a character budget."""

from __future__ import annotations

from dataclasses import dataclass

OVERLAP_SHARE = 0.15
"""Share of a window repeated at the start of the next one."""


@dataclass(frozen=True, slots=True)
class BudgetWindow:
    """A run of source lines (or a piece of one long line) that fits the budget."""

    first: int
    """Index of the first source line in the window."""
    last: int
    """Index of the last source line in the window (inclusive)."""
    text: str


def _split_long_line(index: int, line: str, budget: int) -> list[BudgetWindow]:
    step = max(1, budget - int(budget * OVERLAP_SHARE))
    pieces: list[BudgetWindow] = []
    start = 0
    while True:
        pieces.append(BudgetWindow(index, index, line[start : start + budget]))
        if start + budget >= len(line):
            return pieces
        start += step


def _overlap_lines(lines: list[str], start: int, end: int, budget: int) -> int:
    """How many lines before `end` to repeat: ~15% of the window, but never so many that the next
    line would not fit beside them (that would make a window that adds nothing new)."""
    count = end - start
    back = 0 if count < 4 else max(1, round(count * OVERLAP_SHARE))
    while back and sum(len(line) + 1 for line in lines[end - back : end]) + len(lines[end]) > budget:
        back -= 1
    return back


def budget_windows(lines: list[str], budget: int) -> list[BudgetWindow]:
    """Pack lines greedily into windows of at most `budget` characters, ~15% overlapping.

    A line longer than the budget is cut into overlapping character pieces, each a window of its own.

    Args:
        lines: Source lines (without newlines).
        budget: Maximum characters of a window's text (lines joined with "\\n"); at least 1.

    Returns:
        Windows in order; every line is in at least one, and each text fits the budget.
    """
    windows: list[BudgetWindow] = []
    index = 0
    while index < len(lines):
        if len(lines[index]) > budget:
            windows.extend(_split_long_line(index, lines[index], budget))
            index += 1
            continue
        size = len(lines[index])
        end = index + 1
        while end < len(lines) and len(lines[end]) <= budget - size - 1:
            size += 1 + len(lines[end])
            end += 1
        windows.append(BudgetWindow(index, end - 1, "\n".join(lines[index:end])))
        if end >= len(lines):
            break
        index = max(index + 1, end - _overlap_lines(lines, index, end, budget))
    return windows
