"""What a selection returns: the picked chunks, why each was picked, and the median code date."""

from __future__ import annotations

from typing import Literal

import msgspec

from sextant.doc_rules import ChunkKind

Reason = Literal["seed", "code", "doc"]


class SelectedChunk(msgspec.Struct, frozen=True, kw_only=True):
    """One chunk of the analysis context."""

    text: str
    """The chunk's source text."""
    path: str
    """Path of the file inside the repository."""
    kind: ChunkKind
    """"doc" or "code", by the shared extension rule (sextant.doc_rules.chunk_kind)."""
    last_modified_at: str | None
    """ISO 8601 date of the file's last commit; None when unknown."""
    start_line: int
    """First line of the chunk (1-based, inclusive)."""
    end_line: int
    """Last line of the chunk (1-based, inclusive)."""
    symbol: str | None
    """Symbol name or doc heading, when any."""
    symbol_type: str
    """function, class, section, window, ..."""
    language: str
    """Language name of the file."""
    reason: Reason
    """Why it was picked: "seed" (root README or manifest), or its kind's budget ("code", "doc")."""


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
