"""Outlines of containers: their own lines, with each member shown by its header and a `...` line."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sextant.parsing.symbol_draft import ELIDED


@dataclass(frozen=True, slots=True)
class MemberSpan:
    """Where a member sits inside its container (0-based rows, inclusive)."""

    first_row: int
    """First row of the member, including its leading comments and decorators."""
    header_first_row: int
    """First row of the declaration itself."""
    header_last_row: int
    """Last row of the declaration before its body."""
    last_row: int


def _indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def build_outline(
    lines: list[str], first_row: int, last_row: int, members: Iterable[MemberSpan]
) -> tuple[list[str], list[int]]:
    """Lay out a container: every own line verbatim; each member's header rows, then a `...` line.

    Args:
        lines: All lines of the file.
        first_row: First row of the container (0-based).
        last_row: Last row of the container (0-based, inclusive).
        members: The container's direct members; they may touch or overlap (several on one line).

    Returns:
        The outline's lines and, for each, its 1-based file line number (ELIDED for `...` lines).
    """
    out: list[str] = []
    numbers: list[int] = []

    def take(row_from: int, row_to: int) -> None:
        for row in range(row_from, row_to + 1):
            out.append(lines[row])
            numbers.append(row + 1)

    cursor = first_row
    for member in sorted(members, key=lambda span: (span.first_row, -span.last_row)):
        if member.last_row < cursor:
            continue
        take(cursor, member.first_row - 1)
        header_from = max(member.header_first_row, cursor)
        header_to = min(member.header_last_row, member.last_row)
        take(header_from, header_to)
        if header_to < member.last_row:
            out.append(_indent_of(lines[member.header_first_row]) + "    ...")
            numbers.append(ELIDED)
        cursor = max(cursor, member.last_row + 1)
    take(cursor, last_row)
    return out, numbers
