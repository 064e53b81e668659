"""Docs put back together from their chunks, so claims keep the doc file's real line numbers."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import msgspec

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_claims.syntax.mentions import newline_lines
from sextant.doc_rules.kinds import chunk_kind


@dataclass(frozen=True)
class DocText:
    """One doc's text as far as the index holds it."""

    path: str
    text: str
    """Lines from `first_line` on; lines no chunk covers are empty, so numbering stays true."""
    first_line: int
    last_modified_at: str | None


class DocTextCollector:
    """Accumulates doc chunks one payload at a time (code payloads are ignored).

    Each chunk's text is kept as the one string the payload already holds (split into lines only
    when its doc is built), not as a line-by-line table: that table cost about twice the text.
    """

    def __init__(self) -> None:
        self._chunks: dict[str, list[tuple[int, str]]] = defaultdict(list)
        self._dates: dict[str, str | None] = {}

    def add(self, payload: ChunkPayload) -> None:
        """Take in one chunk payload; overlapping windows repeat lines, the first copy wins."""
        if chunk_kind(payload.path) != "doc":
            return
        self._chunks[payload.path].append((payload.start_line, payload.text))
        date = payload.last_modified_at
        if self._dates.get(payload.path) is None:
            self._dates[payload.path] = None if isinstance(date, msgspec.UnsetType) else date

    def build(self) -> list[DocText]:
        """The docs, sorted by path."""
        docs = []
        for path in sorted(self._chunks):
            lines: dict[int, str] = {}
            for start, text in self._chunks[path]:  # in arrival order: the first copy of a line wins
                for index, line in enumerate(newline_lines(text)):  # a form feed ends no line of the chunk
                    lines.setdefault(start + index, line.removesuffix("\n").removesuffix("\r"))
            if not lines:
                continue
            first, last = min(lines), max(lines)
            text = "\n".join(lines.get(number, "") for number in range(first, last + 1))
            docs.append(DocText(path, text, first, self._dates.get(path)))
        return docs


def reassemble_docs(payloads: Iterable[ChunkPayload]) -> list[DocText]:
    """Rebuild every doc in the payloads from its chunks (sorted by line, windows de-duplicated).

    Args:
        payloads: Chunk payloads of one repository, in any order.

    Returns:
        One DocText per doc path, sorted by path.
    """
    collector = DocTextCollector()
    for payload in payloads:
        collector.add(payload)
    return collector.build()
