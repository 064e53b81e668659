"""What a search or a symbol look-up returns: one hit per chunk, with everything a reader needs to trust it."""

from __future__ import annotations

from typing import Literal

import msgspec

SearchMode = Literal["hybrid", "sparse", "dense"]


class SearchHit(msgspec.Struct, frozen=True, kw_only=True):
    """One chunk found, located, dated and framed."""

    repo_key: str
    """Repository the chunk belongs to."""
    path: str
    """File path inside the repository (repository text: print it cleaned)."""
    start_line: int
    """First line of the chunk (1-based)."""
    end_line: int
    """Last line of the chunk."""
    kind: str
    """"code" or "doc"."""
    language: str = ""
    """Language of the file."""
    symbol: str | None = None
    """Symbol or doc heading; None for plain windows."""
    symbol_type: str = "window"
    """function, class, method, section, window, ..."""
    score: float = 0.0
    """Rank score (RRF when fused, else the one side's similarity); only the order means anything."""
    last_modified_at: str | None = None
    """Date of the chunk's lines (its symbol's last change when known, else its file's); None = unknown."""
    age: str = "age unknown"
    """``last_modified_at`` in words, e.g. "3 months ago"."""
    stale: bool = False
    """A doc older than the retrieved code by more than the staleness gap: verify it against the code."""
    trust_note: str = ""
    """Why to trust or doubt the hit: "" for code, the doc framing for docs, the gap for stale docs."""
    snippet: str = ""
    """A few lines of the chunk around the best match (repository text)."""
    line: int | None = None
    """For a usage: the line where the identifier appears."""

    @property
    def location(self) -> str:
        """``path:Lx-Ly`` (or ``path:Ln`` for a usage)."""
        if self.line is not None:
            return f"{self.path}:L{self.line}"
        return f"{self.path}:L{self.start_line}-L{self.end_line}"


class SearchOutcome(msgspec.Struct, frozen=True, kw_only=True):
    """Hits of one query over one or more repositories, and how they were found."""

    query: str
    """The query as given."""
    mode: SearchMode
    """hybrid, or sparse while some repository's dense vectors are incomplete (or dense, on request)."""
    hits: list[SearchHit]
    """Best first, over every repository searched."""
    notes: list[str] = msgspec.field(default_factory=list)
    """What the reader must know: sparse-only fallbacks, empty repositories, the median code date."""
    median_code: str | None = None
    """Median date of the code files among the hits: what stale docs are measured against."""
