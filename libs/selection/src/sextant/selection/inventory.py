"""One streaming pass over a repository's payloads, keeping only the chunks a selection can use.

Memory is bounded by files, not chunks: each file keeps its first MAX_CHUNKS_PER_FILE chunks (in
a fixed in-file order), because no selection takes more from one file while the capped pool can
fill the limit. Until the pool can (few files, e.g. a tiny repository), files keep up to `limit`
chunks, since the caps then give way and every chunk may be needed.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Iterable
from dataclasses import dataclass, field

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_rules import ChunkKind, chunk_kind, parse_iso_date
from sextant.selection.budget import MAX_CHUNKS_PER_FILE
from sextant.selection.seeds import seed_rank

ChunkKey = tuple[float, int, int, int, str, str, str, str, str, str]
"""A kept chunk: (symbol rank, start_line, end_line, window, symbol or "", symbol_type, language,
last_modified_at or "", text, symbol_last_modified_at or ""). The symbol rank puts chunks whose own
lines have a known date first, newest first (minus the UTC epoch seconds), and every other chunk
after them (UNDATED_SYMBOL); tuple order is then the in-file order: top of the file first; the later
fields only break ties, so the order is total over everything a SelectedChunk shows and the same
index always yields the same selection. Keeping this tuple rather than the payload lets the rest of
the payload go as soon as it is read, which keeps both memory and garbage collection work small."""


@dataclass(slots=True)
class FileChunks:
    """What the pass learned about one file."""

    path: str
    kind: ChunkKind
    seed_rank: int | None
    blob_sha: str | None = None
    """The file's blob SHA (every chunk of a path carries the same one)."""
    chunk_count: int = 0
    newest: float | None = None
    """UTC epoch seconds of the newest date among the file's chunks; None when undated."""
    newest_date: str | None = None
    """That date as the payload wrote it."""
    kept: list[ChunkKey] = field(default_factory=list)
    """The file's first chunks, sorted."""

    @property
    def bucket(self) -> str:
        """Top-level directory of the file; "" for files at the root (their own bucket)."""
        head, slash, _ = self.path.partition("/")
        return head if slash else ""


UNDATED_SYMBOL = float("inf")
"""The symbol rank of a chunk whose own lines have no known date: after every dated one."""


def symbol_date(payload: ChunkPayload) -> str | None:
    """When the chunk's own lines last changed, when the index knows it (symbol-level recency)."""
    value = payload.symbol_last_modified_at  # unset or None: not known (older index, blob-less mirror)
    return value if isinstance(value, str) and value else None


def symbol_rank(symbol_modified: str | None) -> float:
    """Newest symbol first: minus its UTC epoch seconds; UNDATED_SYMBOL when unknown or unreadable."""
    parsed = parse_iso_date(symbol_modified)
    return UNDATED_SYMBOL if parsed is None else -parsed.timestamp()


def chunk_key(payload: ChunkPayload, rank: float | None = None) -> ChunkKey:
    """The kept form of a chunk.

    Args:
        payload: A chunk payload.
        rank: Its symbol rank when already computed.

    Returns:
        (symbol rank, start_line, end_line, window, symbol, symbol_type, language, last_modified_at,
        text, symbol_last_modified_at).
    """
    modified = payload.last_modified_at
    symbol_modified = symbol_date(payload)
    return (
        symbol_rank(symbol_modified) if rank is None else rank,
        payload.start_line,
        payload.end_line,
        payload.window,
        payload.symbol or "",
        payload.symbol_type,
        payload.language,
        modified if isinstance(modified, str) else "",
        payload.text,
        symbol_modified or "",
    )


class Inventory:
    """Files of one repository with the chunks worth keeping, built in one pass."""

    def __init__(self, limit: int) -> None:
        self.files: dict[str, FileChunks] = {}
        self.chunks_seen = 0
        self._limit = limit
        self._capped_pool = 0
        self._keep = max(limit, MAX_CHUNKS_PER_FILE)
        self._timestamps: dict[str, float | None] = {}

    @property
    def capped_pool(self) -> int:
        """Chunks selectable with every file held to MAX_CHUNKS_PER_FILE."""
        return self._capped_pool

    def add_all(self, payloads: Iterable[ChunkPayload]) -> None:
        """Take in every payload of the scroll.

        Args:
            payloads: Chunk payloads in any order.
        """
        # One flat loop over locals: it runs once per chunk (100k and more), where attribute lookups
        # on self would cost as much as the work itself. State is written back even on an error.
        files, limit, keep = self.files, self._limit, self._keep
        seen, capped_pool = self.chunks_seen, self._capped_pool
        try:
            for payload in payloads:
                seen += 1
                path = payload.path
                entry = files.get(path)
                if entry is None:
                    entry = self._new_file(path, payload.blob_sha)
                count = entry.chunk_count = entry.chunk_count + 1
                if count <= MAX_CHUNKS_PER_FILE:
                    capped_pool += 1
                    if capped_pool == limit:
                        keep = MAX_CHUNKS_PER_FILE
                        self._shrink_to_cap()
                modified = payload.last_modified_at
                if modified.__class__ is str and modified != entry.newest_date:
                    self._note_date(entry, modified)
                kept = entry.kept
                dated = symbol_date(payload)
                rank = UNDATED_SYMBOL if dated is None else symbol_rank(dated)
                if len(kept) < keep:
                    insort(kept, chunk_key(payload, rank))
                # Most chunks lose on rank and start line alone: build the full key only for the rest.
                elif (rank, payload.start_line) <= kept[-1][:2] and (key := chunk_key(payload, rank)) < kept[-1]:
                    insort(kept, key)
                    kept.pop()
        finally:
            self.chunks_seen, self._capped_pool, self._keep = seen, capped_pool, keep

    def _new_file(self, path: str, blob_sha: str) -> FileChunks:
        entry = FileChunks(path=path, kind=chunk_kind(path), seed_rank=seed_rank(path), blob_sha=blob_sha)
        self.files[path] = entry
        return entry

    def _note_date(self, entry: FileChunks, modified: str) -> None:
        if modified in self._timestamps:
            stamp = self._timestamps[modified]
        else:
            parsed = parse_iso_date(modified)
            stamp = self._timestamps[modified] = None if parsed is None else parsed.timestamp()
        if stamp is None:
            return
        if entry.newest is None or (stamp, modified) > (entry.newest, entry.newest_date or ""):
            entry.newest, entry.newest_date = stamp, modified

    def _shrink_to_cap(self) -> None:
        # From now on the capped pool can fill the limit, so chunks past the cap are never picked.
        for entry in self.files.values():
            del entry.kept[MAX_CHUNKS_PER_FILE:]
