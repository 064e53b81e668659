"""Outline chunks placed back in their file: which file line each line of an outline is.

A container's chunk (a file's module outline, a JavaScript class) shows each member by its header
and a `...` line, without the comments above the header, so a line's offset in the outline is not
its offset in the file. The members' own chunks say where each header is and where the member
ends; once every chunk of the file is in, the outline's lines are placed back (`outline_lines`).
Chunks come in any order, so outlines wait in `Outlines` until the facts are built.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

from sextant.chunkstore.payload import ChunkPayload

Kept = TypeVar("Kept")
ContainerKey = tuple[str, str | None]
"""(file, container): the container's name, or None for the file's module outline."""


@dataclass(frozen=True, order=True, slots=True)
class OutlinedMember:
    """A symbol a file's outline shows by its header: that header line, where it is, where the symbol ends."""

    line: int
    """File line of the header's first line."""
    end_line: int
    header: str
    """The header's first line, stripped, without a trailing `{`."""


def outline_lines(text: str, start_line: int, members: list[OutlinedMember]) -> list[int]:
    """The file line of each line of an outline chunk (a `...` line gets the line of the body it stands for).

    Args:
        text: The outline's text (the file's own lines, each member's header and a `...` line).
        start_line: The chunk's first line in the file.
        members: The file's outlined symbols, sorted by line.

    Returns:
        One file line per line of the text.
    """
    numbers: list[int] = []
    cursor = start_line
    ahead = iter(members)
    upcoming = next(ahead, None)
    passed: OutlinedMember | None = None
    for line in text.split("\n"):
        stripped = line.strip()
        while upcoming is not None and upcoming.line < cursor:
            upcoming = next(ahead, None)
        if stripped == "..." and passed is not None:
            numbers.append(cursor)
            cursor = passed.end_line + 1
            passed = None
            continue
        if upcoming is not None and _header_form(line) == upcoming.header:
            cursor, passed = upcoming.line, upcoming
            upcoming = next(ahead, None)
        numbers.append(cursor)
        cursor += 1
    return numbers


def _header_form(line: str) -> str:
    """A header line as a signature writes it: stripped, without the body's opening brace."""
    return line.strip().removesuffix("{").rstrip()


@dataclass(frozen=True, slots=True)
class PlacedOutline(Generic[Kept]):
    """An outline chunk's text with the file line of each of its lines."""

    text: str
    lines: list[int]
    kept: Kept
    """What its taker kept beside it (the chunk's package, its kind)."""


class Outlines(Generic[Kept]):
    """Outline chunks and the headers of the members they show, taken chunk by chunk, placed once all are in."""

    def __init__(self) -> None:
        """Start empty."""
        self._outlines: dict[ContainerKey, list[tuple[int, str, Kept]]] = defaultdict(list)
        self._starts: dict[tuple[ContainerKey, str, str | None], list[tuple[int, str]]] = defaultdict(list)
        self._ends: dict[tuple[ContainerKey, str, str | None], list[int]] = defaultdict(list)

    def offer_outline(self, container: ContainerKey, payload: ChunkPayload, kept: Kept) -> None:
        """Take in an outline chunk (or one window of it) of a container."""
        self._outlines[container].append((payload.start_line, payload.text, kept))

    def offer_member(self, container: ContainerKey, payload: ChunkPayload) -> None:
        """Take in one window of a symbol the container's outline shows by its header."""
        if not payload.symbol:
            return
        key = (container, payload.symbol, payload.signature)
        if payload.window == 0:
            # The header is the declaration's first line (its signature's), after the comments above it.
            header = _header_form((payload.signature or "").split("\n", 1)[0])
            lines = payload.text.split("\n")
            offset = next((i for i, line in enumerate(lines) if header and _header_form(line) == header), None)
            # A header not found is kept unmatchable, so each start still pairs with its own end.
            found = (payload.start_line + offset, header) if offset is not None else (payload.start_line, "")
            self._starts[key].append(found)
        if payload.window == payload.window_count - 1:
            self._ends[key].append(payload.end_line)

    def placed(self) -> Iterator[tuple[ContainerKey, PlacedOutline[Kept]]]:
        """Each outline chunk taken, with the file line of each of its lines."""
        members: dict[ContainerKey, list[OutlinedMember]] = defaultdict(list)
        for key, starts in self._starts.items():
            for (line, header), end in zip(sorted(starts), sorted(self._ends.get(key, ())), strict=False):
                members[key[0]].append(OutlinedMember(line, end, header))
        for container, outlines in self._outlines.items():
            outlined = sorted(members.get(container, ()))
            for start_line, text, kept in outlines:
                yield container, PlacedOutline(text, outline_lines(text, start_line, outlined), kept)
