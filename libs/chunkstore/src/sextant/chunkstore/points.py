"""What goes into the chunk store and what comes out: points, file entries, search hits, point ids."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Hashable, Iterable

import msgspec

from sextant.chunkstore.payload import ChunkPayload, SparseVector

POINT_ID_NAMESPACE = uuid.UUID("4f0c7b1e-5a52-5b8e-9d3c-6e5a7c2b9f10")
"""Fixed uuid5 namespace of Sextant chunk point ids; changing it would orphan every stored point."""


class ChunkPoint(msgspec.Struct, frozen=True, kw_only=True, gc=False):  # no cycles: see payload.py
    """One chunk as written to the store: id, vectors and the payload."""

    id: str
    """Point id: a uuid string, normally from `point_id` so that replays overwrite instead of duplicating."""
    dense: list[float] | None = None
    """Dense embedding (its length must equal the store's dimension); None stores the point without one,
    to be added later with `ChunkStore.add_dense_vectors` (payload and sparse vector untouched)."""
    sparse: SparseVector
    """Sparse (BM25 term-frequency) vector; the engine applies IDF at query time."""
    payload: ChunkPayload
    """Everything else stored with the chunk."""


class DenseUpdate(msgspec.Struct, frozen=True, kw_only=True):
    """A dense vector for a stored point, written only if the point still holds the content it was
    computed from."""

    id: str
    """Point id."""
    dense: list[float]
    """Dense embedding of the point's `dense_text_of(payload)`."""
    indexed_at: str
    """The `indexed_at` of the payload the vector was computed from: a point rewritten since (new
    content, new `indexed_at`) is left alone, so it never gets a vector of its old text."""


class StoredChunk(msgspec.Struct, frozen=True, kw_only=True):
    """A stored point's id and payload (no vectors)."""

    id: str
    """Point id."""
    payload: ChunkPayload
    """The stored payload."""


class FileEntry(msgspec.Struct, frozen=True, kw_only=True):
    """What the store holds for one file of a repository."""

    blob_sha: str
    """Blob SHA shared by all of the file's points; "" when they disagree (an interrupted
    upsert-then-delete) or when fewer points are stored than their `file_chunk_count` says (a write
    cut short between batches), so the file never looks unchanged and the next run heals it."""
    point_ids: frozenset[str]
    """Ids of every point stored for the file."""
    last_modified_at: str | msgspec.UnsetType | None = msgspec.UNSET
    """The `last_modified_at` all of the file's points carry: a date, None (age unknown) or UNSET (absent,
    or the points disagree — see `last_modified_mixed`)."""
    last_modified_mixed: bool = False
    """True when the file's points disagree on `last_modified_at`, so that any recency stamp differs."""
    run_id: str = ""
    """The run that wrote every point of the file ("" when they disagree or predate the field)."""
    added_by_run: bool = False
    """That run found the file new to the store (see `ChunkPayload.file_added`)."""


class ScoredChunk(msgspec.Struct, frozen=True, kw_only=True):
    """One hybrid search hit."""

    id: str
    """Point id."""
    score: float
    """Fused (RRF) score: higher is better; only the order is meaningful, not the scale."""
    payload: ChunkPayload
    """The stored payload, `last_modified_at` included when present."""


def best_window_per_symbol(
    hits: Iterable[ScoredChunk], symbol_key: Callable[[ChunkPayload], Hashable]
) -> list[ScoredChunk]:
    """Keep the best-ranked window of each symbol split into windows (hits are best first).

    Args:
        hits: Hits, best first.
        symbol_key: Which windows are one symbol's (a search over many repositories keys by repository too).

    Returns:
        The hits without the lower-ranked windows of the same symbol; unsplit chunks all stay.
    """
    seen: set[Hashable] = set()
    kept = []
    for hit in hits:
        if hit.payload.window_count > 1:
            key = symbol_key(hit.payload)
            if key in seen:
                continue
            seen.add(key)
        kept.append(hit)
    return kept


def point_id(repo_key: str, path: str, symbol: str | None, start_line: int, window: int) -> str:
    """Deterministic id of a chunk point, so that re-indexing the same chunk overwrites it.

    Args:
        repo_key: Subject-safe repository key.
        path: Path of the file inside the repository.
        symbol: Symbol name or doc heading; None for plain line windows.
        start_line: First line of the symbol (1-based).
        window: Window index when a symbol is split into overlapping windows, else 0.

    Returns:
        A uuid5 string.
    """
    # A JSON array keeps the parts unambiguous (no separator can collide with a path or a symbol).
    key = msgspec.json.encode([repo_key, path, symbol, start_line, window]).decode()
    return str(uuid.uuid5(POINT_ID_NAMESPACE, key))
