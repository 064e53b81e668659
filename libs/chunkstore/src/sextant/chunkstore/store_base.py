"""What both engines do alike: batching, dimension checks, paging, search sides, the freshness check.

`ChunkStoreBase` implements the `ChunkStore` port (whose docstrings state the contract) over a few engine
calls that each adapter writes in its own client's types: count, write, delete, set payload, scroll a
page, query, read and write dense vectors, all addressed by a `Scope`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

from sextant.chunkstore import scope as scopes
from sextant.chunkstore.file_index import build_file_index
from sextant.chunkstore.last_modified import LAST_MODIFIED_FIELD, group_by_stamp
from sextant.chunkstore.payload import ChunkPayload, SparseVector
from sextant.chunkstore.points import ChunkPoint, DenseUpdate, FileEntry, ScoredChunk, StoredChunk
from sextant.chunkstore.port import (
    DEFAULT_PAGE_SIZE,
    DEFAULT_PREFETCH_LIMIT,
    DEFAULT_SEARCH_LIMIT,
    DEFAULT_SYMBOL_LIMIT,
)
from sextant.chunkstore.schema import (
    DENSE_VECTOR,
    FILE_INDEX_STORED,
    SPARSE_VECTOR,
    WRITE_BATCH,
    batches,
    check_dimension,
    payload_from_stored,
    unpacked,
)
from sextant.chunkstore.scope import Scope

FILE_INDEX_PAGE = 1024
"""Points per page of the payload-only scroll behind `file_index`."""

WithPayload = bool | list[str]
"""All of the payload, none, or only the named fields."""

Side = tuple[Any, str]
"""One search side: the engine's query vector and the name of the vector it searches."""


class StoredRecord(Protocol):
    """A point as either engine returns it from a scroll."""

    @property
    def id(self) -> Any: ...

    @property
    def payload(self) -> dict[str, Any] | None: ...


class ScoredRecord(StoredRecord, Protocol):
    """A search hit as either engine returns it."""

    @property
    def score(self) -> float: ...


class ChunkStoreBase(ABC):
    """The `ChunkStore` port over an engine; subclasses supply the engine calls."""

    def __init__(self, collection: str, dimension: int) -> None:
        """Remember the collection's name and dense size.

        Args:
            collection: Collection name (see `collection_name`).
            dimension: Dense vector size.
        """
        self._collection = collection
        self._dimension = dimension

    @property
    def collection(self) -> str:
        """Name of the collection."""
        return self._collection

    # The engine calls.

    @abstractmethod
    def _guard(self) -> AbstractContextManager[Any]:
        """Held around a read and the write that depends on it (a count and its delete, say)."""

    @abstractmethod
    def _sparse(self, sparse: SparseVector) -> Any:
        """The engine's sparse vector."""

    @abstractmethod
    def _write(self, points: list[ChunkPoint]) -> None:
        """Upsert one batch of points."""

    @abstractmethod
    def _delete_ids(self, ids: list[str]) -> None:
        """Delete one batch of points by id."""

    @abstractmethod
    def _count(self, scope: Scope) -> int:
        """Exact number of points in scope."""

    @abstractmethod
    def _delete_scope(self, scope: Scope) -> None:
        """Delete every point in scope."""

    @abstractmethod
    def _set_payload(self, scope: Scope, payload: dict[str, Any]) -> None:
        """Set these payload fields on every point in scope."""

    @abstractmethod
    def _overwrite_unknown_age(self, records: list[Any]) -> None:
        """Rewrite each record's payload without `last_modified_at` (see `with_unknown_age`)."""

    @abstractmethod
    def _scroll_page(self, scope: Scope, offset: Any, limit: int, with_payload: WithPayload) -> tuple[list[Any], Any]:
        """One page of points in scope, without vectors, and the next page's offset (None at the end)."""

    @abstractmethod
    def _query(self, scope: Scope, sides: list[Side], limit: int, fuse_candidates: int | None) -> list[Any]:
        """Hits in scope: with `fuse_candidates`, that many per side fused by RRF; else the one side alone."""

    @abstractmethod
    def _indexed_at(self, ids: list[str]) -> dict[str, Any]:
        """Point id -> stored `indexed_at`, for the ids that exist."""

    @abstractmethod
    def _write_dense(self, updates: list[DenseUpdate]) -> None:
        """Give these points their dense vector (they were fresh when checked)."""

    @abstractmethod
    def close(self) -> None:
        """Release the engine; closing twice is harmless."""

    # Shared helpers.

    def _vectors(self, point: ChunkPoint) -> dict[str, Any]:
        vectors: dict[str, Any] = {SPARSE_VECTOR: self._sparse(point.sparse)}
        if point.dense is not None:
            vectors[DENSE_VECTOR] = point.dense
        return vectors

    def _sides(self, dense: list[float] | None, sparse: SparseVector | None) -> list[Side]:
        sides: list[Side] = []
        if dense is not None:
            check_dimension(dense, self._dimension)
            sides.append((dense, DENSE_VECTOR))
        if sparse is not None and sparse.indices:
            sides.append((self._sparse(sparse), SPARSE_VECTOR))
        return sides

    def _scroll(self, scope: Scope, page_size: int, with_payload: WithPayload) -> Iterator[Any]:
        if page_size <= 0:
            raise ValueError("page_size must be positive")
        offset: Any = None
        while True:
            records, offset = self._scroll_page(scope, offset, page_size, with_payload)
            yield from records
            if offset is None:
                return

    def _scored(self, scope: Scope, sides: list[Side], limit: int, fuse_candidates: int | None) -> list[ScoredChunk]:
        hits: list[ScoredRecord] = self._query(scope, sides, limit, fuse_candidates)
        return [ScoredChunk(id=str(hit.id), score=hit.score, payload=payload_from_stored(hit.payload)) for hit in hits]

    # The port.

    def upsert(self, points: Sequence[ChunkPoint]) -> None:
        """Write points in batches, replacing any with the same id; durable and visible on return."""
        for point in points:
            if point.dense is not None:
                check_dimension(point.dense, self._dimension)
        for batch in batches(points, WRITE_BATCH):
            self._write(batch)

    def delete_points(self, ids: Collection[str]) -> None:
        """Delete points by id; unknown ids are ignored."""
        for batch in batches(ids, WRITE_BATCH):
            self._delete_ids(batch)

    def delete_paths(self, repo_key: str, paths: Collection[str]) -> int:
        """Delete every point of the given files; returns how many (counted under the guard)."""
        deleted = 0
        for batch in batches(sorted(set(paths)), WRITE_BATCH):
            scope = scopes.files(repo_key, batch)
            with self._guard():
                deleted += self._count(scope)
                self._delete_scope(scope)
        return deleted

    def set_last_modified(self, repo_key: str, stamps: Mapping[str, str | None]) -> int:
        """Re-stamp `last_modified_at` on the given files' points; returns how many."""
        dated, unknown = group_by_stamp(stamps)
        touched = 0
        for date, paths in dated.items():
            for batch in batches(paths, WRITE_BATCH):
                scope = scopes.files(repo_key, batch)
                with self._guard():
                    touched += self._count(scope)
                    self._set_payload(scope, {LAST_MODIFIED_FIELD: date})
        for batch in batches(unknown, WRITE_BATCH):
            with self._guard():
                records = list(self._scroll(scopes.files(repo_key, batch), WRITE_BATCH, True))
                self._overwrite_unknown_age(records)
            touched += len(records)
        return touched

    def file_index(self, repo_key: str) -> dict[str, FileEntry]:
        """path -> FileEntry for every stored file of a repository (one payload-only scroll)."""
        records: Iterator[StoredRecord] = self._scroll(
            scopes.repository(repo_key), FILE_INDEX_PAGE, list(FILE_INDEX_STORED)
        )
        return build_file_index((str(record.id), unpacked(record.payload)) for record in records)

    def scroll_payloads(self, repo_key: str, page_size: int = DEFAULT_PAGE_SIZE) -> Iterator[ChunkPayload]:
        """Every payload of a repository, page by page, without vectors."""
        for record in self._scroll(scopes.repository(repo_key), page_size, True):
            yield payload_from_stored(record.payload)

    def hybrid_search(
        self,
        repo_key: str,
        dense: list[float],
        sparse: SparseVector,
        limit: int = DEFAULT_SEARCH_LIMIT,
        prefetch_limit: int = DEFAULT_PREFETCH_LIMIT,
    ) -> list[ScoredChunk]:
        """Dense and (when not empty) sparse prefetch, always fused with RRF."""
        sides = self._sides(dense, sparse)
        return self._scored(scopes.repository(repo_key), sides, limit, max(prefetch_limit, limit))

    def search_chunks(
        self,
        repo_key: str,
        *,
        dense: list[float] | None = None,
        sparse: SparseVector | None = None,
        kind: str | None = None,
        limit: int = DEFAULT_SEARCH_LIMIT,
        prefetch_limit: int = DEFAULT_PREFETCH_LIMIT,
    ) -> list[ScoredChunk]:
        """Search by whichever vectors are given: two are fused with RRF, one ranks alone."""
        sides = self._sides(dense, sparse)
        if not sides:
            return []
        fuse_candidates = max(prefetch_limit, limit) if len(sides) > 1 else None
        return self._scored(scopes.repository(repo_key, kind=kind), sides, limit, fuse_candidates)

    def find_symbols(
        self, repo_key: str, name: str, *, prefix: bool = False, limit: int = DEFAULT_SYMBOL_LIMIT
    ) -> list[ChunkPayload]:
        """Payloads whose symbol equals (or starts with) `name`, by path and first line."""
        records, _ = self._scroll_page(scopes.symbols(repo_key, name, prefix=prefix), None, limit, True)
        payloads = [payload_from_stored(record.payload) for record in records]
        return sorted(payloads, key=lambda payload: (payload.path, payload.start_line, payload.window))

    def count_missing_dense(self, repo_key: str) -> int:
        """Exact number of a repository's points without a dense vector."""
        return self._count(scopes.missing_dense(repo_key))

    def scroll_missing_dense(self, repo_key: str, page_size: int = DEFAULT_PAGE_SIZE) -> Iterator[StoredChunk]:
        """(id, payload) of each point without a dense vector yet, read page by page."""
        for record in self._scroll(scopes.missing_dense(repo_key), page_size, True):
            yield StoredChunk(id=str(record.id), payload=payload_from_stored(record.payload))

    def add_dense_vectors(self, updates: Sequence[DenseUpdate]) -> int:
        """Add dense vectors to points whose `indexed_at` still matches; returns how many."""
        for update in updates:
            check_dimension(update.dense, self._dimension)
        written = 0
        for batch in batches(updates, WRITE_BATCH):
            with self._guard():
                current = self._indexed_at([update.id for update in batch])
                fresh = [update for update in batch if current.get(update.id) == update.indexed_at]
                if fresh:
                    self._write_dense(fresh)
            written += len(fresh)
        return written

    def count(self, repo_key: str) -> int:
        """Exact number of points of a repository."""
        return self._count(scopes.repository(repo_key))
