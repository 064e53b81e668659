"""What a selection returns: the picked chunks (the event's own SelectedChunk), and the median code date."""

from __future__ import annotations

from typing import Literal

import msgspec

from sextant.contracts import SelectedChunk, SelectionCounts

Reason = Literal["seed", "code", "doc"]
"""Why a chunk was picked: a README/manifest seed, or its kind's budget."""

__all__ = ["Reason", "SelectedChunk", "Selection"]


class Selection(msgspec.Struct, frozen=True, kw_only=True):
    """The chunks picked for one analysis or summary, and the repository's staleness reference."""

    chunks: list[SelectedChunk]
    """Seeds first, then code, then docs; each group in the order it was picked."""
    median_code: str | None
    """Median last-commit date over code files (not chunks); None when no code file is dated."""
    limit: int
    """The selection size asked for."""
    chunks_seen: int
    """Every chunk payload the scroll returned."""
    docs_available: int
    """Doc chunks among them."""
    code_available: int
    """Code chunks among them."""
    picked: int
    """len(chunks)."""

    def counts(self) -> SelectionCounts:
        """How the selection was made up, as its ChunksSelected event reports it."""
        return SelectionCounts(
            total_chunks=self.chunks_seen,
            code_available=self.code_available,
            doc_available=self.docs_available,
            picked_code=sum(1 for chunk in self.chunks if chunk.kind == "code"),
            picked_doc=sum(1 for chunk in self.chunks if chunk.kind == "doc"),
        )
