"""Chunk store on qdrant-edge-py: Qdrant's in-process engine, one shard directory per collection."""

from __future__ import annotations

import logging
import threading
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import qdrant_edge as qe

from sextant.chunkstore.file_index import FILE_INDEX_FIELDS, build_file_index
from sextant.chunkstore.last_modified import LAST_MODIFIED_FIELD, group_by_stamp, with_unknown_age
from sextant.chunkstore.payload import ChunkPayload, SparseVector
from sextant.chunkstore.points import ChunkPoint, DenseUpdate, FileEntry, ScoredChunk, StoredChunk
from sextant.chunkstore.port import (
    DEFAULT_PAGE_SIZE,
    DEFAULT_PREFETCH_LIMIT,
    DEFAULT_SEARCH_LIMIT,
    DEFAULT_SYMBOL_LIMIT,
)
from sextant.chunkstore.schema import (
    DATETIME_FIELDS,
    DENSE_VECTOR,
    RRF_K,
    SPARSE_VECTOR,
    WRITE_BATCH,
    IndexedField,
    batches,
    check_dimension,
    payload_from_stored,
    payload_to_stored,
)

logger = logging.getLogger(__name__)


def _repo_filter(repo_key: str, *extra: Any) -> qe.Filter:
    return qe.Filter(must=[qe.FieldCondition("repo_key", match=qe.MatchValue(repo_key)), *extra])


def _missing_dense_filter(repo_key: str) -> qe.Filter:
    return qe.Filter(
        must=[qe.FieldCondition("repo_key", match=qe.MatchValue(repo_key))],
        must_not=[qe.HasVectorCondition(DENSE_VECTOR)],
    )


def _engine_vectors(point: ChunkPoint) -> dict[str, Any]:
    vectors: dict[str, Any] = {SPARSE_VECTOR: qe.SparseVector(point.sparse.indices, point.sparse.values)}
    if point.dense is not None:
        vectors[DENSE_VECTOR] = point.dense
    return vectors


def _paths_filter(repo_key: str, paths: list[str]) -> qe.Filter:
    return _repo_filter(repo_key, qe.FieldCondition("path", match=qe.MatchAny(paths)))


def _index_schema(field: IndexedField) -> Any:
    if field in DATETIME_FIELDS:
        return qe.PayloadSchemaType.Datetime
    # Repositories are tenants of a shared collection: the engine groups their points on disk.
    return qe.KeywordIndexParams(is_tenant=field is IndexedField.REPO_KEY)


class EdgeChunkStore:
    """Embedded chunk store on disk, the default run mode.

    The shard lives in `path / collection`, so several embedding models can sit under one base folder.
    The engine writes a WAL (a process that dies after `upsert` returns loses nothing; tested with
    `os._exit`, not with power loss) and holds an exclusive lock
    on its directory, so one process owns a store at a time. qdrant-edge-py 0.9 keeps the GIL for the
    whole of every call (measured), so calls cannot overlap anyway; a lock serialises them explicitly,
    which also makes `close()` safe while other threads are using the store.
    """

    def __init__(self, path: Path, collection: str, dimension: int) -> None:
        """Open the store, creating the shard and its payload indexes on first use.

        Args:
            path: Base folder; the shard goes in `path / collection`.
            collection: Collection name (see `collection_name`).
            dimension: Dense vector size; an existing shard of another size is refused.
        """
        self._collection = collection
        self._dimension = dimension
        self._lock = threading.RLock()
        self._directory = path / collection
        config = qe.EdgeConfig(
            vectors={DENSE_VECTOR: qe.EdgeVectorParams(size=dimension, distance=qe.Distance.Cosine)},
            sparse_vectors={SPARSE_VECTOR: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        )
        if (self._directory / "edge_config.json").exists():
            # Passing the config makes the engine check that the stored vectors are compatible.
            self._shard: qe.EdgeShard | None = qe.EdgeShard.load(str(self._directory), config)
        else:
            self._shard = qe.EdgeShard.create(str(self._directory), config)
        try:
            self._ensure_payload_indexes()
        except BaseException:
            self.close()  # release the directory lock, or no later open could succeed
            raise
        logger.info("opened embedded chunk store %s at %s", collection, self._directory)

    @property
    def collection(self) -> str:
        """Name of the collection."""
        return self._collection

    @property
    def directory(self) -> Path:
        """The shard's folder."""
        return self._directory

    @contextmanager
    def _open_shard(self) -> Iterator[qe.EdgeShard]:
        with self._lock:
            if self._shard is None:
                raise RuntimeError(f"chunk store {self._collection} is closed")
            yield self._shard

    def _ensure_payload_indexes(self) -> None:
        # Checked on every open: a crash between create and the last index must not leave one missing.
        with self._open_shard() as shard:
            existing = shard.info().payload_schema
            for field in IndexedField:
                if field.value not in existing:
                    shard.update(qe.UpdateOperation.create_field_index(field.value, _index_schema(field)))

    def upsert(self, points: Sequence[ChunkPoint]) -> None:
        """Write points, replacing any with the same id; durable (WAL) and visible on return.

        Args:
            points: Points to write.
        """
        for point in points:
            if point.dense is not None:
                check_dimension(point.dense, self._dimension)
        for batch in batches(points, WRITE_BATCH):
            engine_points = [
                qe.Point(point.id, _engine_vectors(point), payload_to_stored(point.payload)) for point in batch
            ]
            with self._open_shard() as shard:
                shard.update(qe.UpdateOperation.upsert_points(engine_points))

    def delete_points(self, ids: Collection[str]) -> None:
        """Delete points by id.

        Args:
            ids: Point ids.
        """
        for batch in batches(ids, WRITE_BATCH):
            with self._open_shard() as shard:
                shard.update(qe.UpdateOperation.delete_points(list(batch)))

    def delete_paths(self, repo_key: str, paths: Collection[str]) -> int:
        """Delete every point of the given files of one repository.

        Args:
            repo_key: Repository.
            paths: File paths.

        Returns:
            Points deleted.
        """
        deleted = 0
        for batch in batches(sorted(set(paths)), WRITE_BATCH):
            path_filter = _paths_filter(repo_key, batch)
            with self._open_shard() as shard:  # count and delete under one lock, so the number is exact
                deleted += shard.count(qe.CountRequest(exact=True, filter=path_filter))
                shard.update(qe.UpdateOperation.delete_points_by_filter(path_filter))
        return deleted

    def set_last_modified(self, repo_key: str, stamps: Mapping[str, str | None]) -> int:
        """Set `last_modified_at` on every point of the given files, without touching vectors.

        Args:
            repo_key: Repository.
            stamps: File path -> ISO date or None.

        Returns:
            Points re-stamped.
        """
        dated, unknown = group_by_stamp(stamps)
        touched = 0
        for date, paths in dated.items():
            for batch in batches(paths, WRITE_BATCH):
                path_filter = _paths_filter(repo_key, batch)
                with self._open_shard() as shard:  # count and write under one lock, so the number is exact
                    touched += shard.count(qe.CountRequest(exact=True, filter=path_filter))
                    shard.update(qe.UpdateOperation.set_payload_by_filter(path_filter, {LAST_MODIFIED_FIELD: date}))
        for batch in batches(unknown, WRITE_BATCH):
            # Read and overwrite under one lock: this process owns the shard, so no write can slip between.
            with self._lock:
                records = list(self._scroll(_paths_filter(repo_key, batch), WRITE_BATCH, True))
                with self._open_shard() as shard:
                    for record in records:
                        overwrite = qe.UpdateOperation.overwrite_payload(
                            [record.id], with_unknown_age(record.payload or {})
                        )
                        shard.update(overwrite)
            touched += len(records)
        return touched

    def _scroll(self, scroll_filter: qe.Filter, page_size: int, with_payload: Any) -> Iterator[qe.Record]:
        if page_size <= 0:
            raise ValueError("page_size must be positive")
        offset: Any = None
        while True:
            request = qe.ScrollRequest(
                offset=offset,
                limit=page_size,
                filter=scroll_filter,
                with_payload=with_payload,
                with_vector=False,
            )
            with self._open_shard() as shard:
                records, offset = shard.scroll(request)
            yield from records
            if offset is None:
                return

    def file_index(self, repo_key: str) -> dict[str, FileEntry]:
        """Map each stored file of a repository to its blob SHA, `last_modified_at` and point ids.

        Args:
            repo_key: Repository.

        Returns:
            path -> FileEntry.
        """
        selector = qe.PayloadSelector.Include(list(FILE_INDEX_FIELDS))
        pairs = (
            (str(record.id), record.payload or {}) for record in self._scroll(_repo_filter(repo_key), 1024, selector)
        )
        return build_file_index(pairs)

    def scroll_payloads(self, repo_key: str, page_size: int = DEFAULT_PAGE_SIZE) -> Iterator[ChunkPayload]:
        """Yield every payload of a repository, page by page, without vectors.

        Args:
            repo_key: Repository.
            page_size: Points per page.

        Returns:
            Payloads in point-id order.
        """
        for record in self._scroll(_repo_filter(repo_key), page_size, True):
            yield payload_from_stored(record.payload)

    def hybrid_search(
        self,
        repo_key: str,
        dense: list[float],
        sparse: SparseVector,
        limit: int = DEFAULT_SEARCH_LIMIT,
        prefetch_limit: int = DEFAULT_PREFETCH_LIMIT,
    ) -> list[ScoredChunk]:
        """Dense + sparse prefetch within one repository, fused with RRF.

        Args:
            repo_key: Repository.
            dense: Dense query vector.
            sparse: Sparse query vector.
            limit: Hits returned.
            prefetch_limit: Candidates per search.

        Returns:
            Hits, best first.
        """
        check_dimension(dense, self._dimension)
        candidates = max(prefetch_limit, limit)
        repo = _repo_filter(repo_key)
        prefetches = [qe.Prefetch(limit=candidates, query=qe.Query.Nearest(dense, using=DENSE_VECTOR), filter=repo)]
        if sparse.indices:
            sparse_query = qe.Query.Nearest(qe.SparseVector(sparse.indices, sparse.values), using=SPARSE_VECTOR)
            prefetches.append(qe.Prefetch(limit=candidates, query=sparse_query, filter=repo))
        request = qe.QueryRequest(
            limit=limit,
            prefetches=prefetches,
            query=qe.Fusion.Rrf(k=RRF_K),  # type: ignore[arg-type]  # the 0.9 stub omits the nested Rrf
            filter=repo,
            with_payload=True,
            with_vector=False,
        )
        with self._open_shard() as shard:
            hits = shard.query(request)
        return [ScoredChunk(id=str(hit.id), score=hit.score, payload=payload_from_stored(hit.payload)) for hit in hits]

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
        """Search by the given vectors: both fused with RRF, one alone.

        Args:
            repo_key: Repository.
            dense: Dense query vector or None.
            sparse: Sparse query vector or None.
            kind: "code", "doc" or None.
            limit: Hits returned.
            prefetch_limit: Candidates per side before fusion.

        Returns:
            Hits, best first.
        """
        scope = _repo_filter(repo_key, *([qe.FieldCondition("kind", match=qe.MatchValue(kind))] if kind else []))
        queries = []
        if dense is not None:
            check_dimension(dense, self._dimension)
            queries.append(qe.Query.Nearest(dense, using=DENSE_VECTOR))
        if sparse is not None and sparse.indices:
            queries.append(qe.Query.Nearest(qe.SparseVector(sparse.indices, sparse.values), using=SPARSE_VECTOR))
        if not queries:
            return []
        if len(queries) == 1:
            request = qe.QueryRequest(limit=limit, query=queries[0], filter=scope, with_payload=True, with_vector=False)
        else:
            candidates = max(prefetch_limit, limit)
            request = qe.QueryRequest(
                limit=limit,
                prefetches=[qe.Prefetch(limit=candidates, query=query, filter=scope) for query in queries],
                query=qe.Fusion.Rrf(k=RRF_K),  # type: ignore[arg-type]  # the 0.9 stub omits the nested Rrf
                filter=scope,
                with_payload=True,
                with_vector=False,
            )
        with self._open_shard() as shard:
            hits = shard.query(request)
        return [ScoredChunk(id=str(hit.id), score=hit.score, payload=payload_from_stored(hit.payload)) for hit in hits]

    def find_symbols(
        self, repo_key: str, name: str, *, prefix: bool = False, limit: int = DEFAULT_SYMBOL_LIMIT
    ) -> list[ChunkPayload]:
        """Chunks whose symbol equals (or starts with) `name`, through the symbol keyword index.

        Args:
            repo_key: Repository.
            name: Symbol name.
            prefix: Prefix match instead of exact.
            limit: Most payloads returned.

        Returns:
            Payloads ordered by path and first line.
        """
        match = qe.MatchPrefix(name) if prefix else qe.MatchValue(name)
        request = qe.ScrollRequest(
            limit=limit,
            filter=_repo_filter(repo_key, qe.FieldCondition("symbol", match=match)),
            with_payload=True,
            with_vector=False,
        )
        with self._open_shard() as shard:
            records, _ = shard.scroll(request)
        payloads = [payload_from_stored(record.payload) for record in records]
        return sorted(payloads, key=lambda payload: (payload.path, payload.start_line, payload.window))

    def count_missing_dense(self, repo_key: str) -> int:
        """Exact number of a repository's points without a dense vector.

        Args:
            repo_key: Repository.

        Returns:
            The count.
        """
        request = qe.CountRequest(exact=True, filter=_missing_dense_filter(repo_key))
        with self._open_shard() as shard:
            return shard.count(request)

    def scroll_missing_dense(self, repo_key: str, page_size: int = DEFAULT_PAGE_SIZE) -> Iterator[StoredChunk]:
        """Yield the points of a repository that have no dense vector yet, page by page.

        Args:
            repo_key: Repository.
            page_size: Points per page.

        Returns:
            (id, payload) in point-id order.
        """
        for record in self._scroll(_missing_dense_filter(repo_key), page_size, True):
            yield StoredChunk(id=str(record.id), payload=payload_from_stored(record.payload))

    def add_dense_vectors(self, updates: Sequence[DenseUpdate]) -> int:
        """Add dense vectors to stored points whose `indexed_at` still matches; payload untouched.

        Args:
            updates: Vectors to add.

        Returns:
            Points that got their vector.
        """
        for update in updates:
            check_dimension(update.dense, self._dimension)
        written = 0
        for batch in batches(updates, WRITE_BATCH):
            # Read and write under one lock: this process owns the shard, so the check stays true.
            with self._open_shard() as shard:
                stored = shard.retrieve(
                    [update.id for update in batch], qe.PayloadSelector.Include(["indexed_at"]), False
                )
                current = {str(record.id): (record.payload or {}).get("indexed_at") for record in stored}
                fresh = [update for update in batch if current.get(update.id) == update.indexed_at]
                if fresh:
                    vectors = [qe.PointVectors(update.id, {DENSE_VECTOR: update.dense}) for update in fresh]
                    shard.update(qe.UpdateOperation.update_vectors(vectors))
            written += len(fresh)
        return written

    def count(self, repo_key: str) -> int:
        """Exact number of points of a repository.

        Args:
            repo_key: Repository.

        Returns:
            The count.
        """
        request = qe.CountRequest(exact=True, filter=_repo_filter(repo_key))
        with self._open_shard() as shard:
            return shard.count(request)

    def optimize(self) -> bool:
        """Merge and index segments after a bulk load (blocks, and holds the GIL, while it runs).

        Returns:
            True when anything was optimised.
        """
        with self._open_shard() as shard:
            return shard.optimize()

    def close(self) -> None:
        """Flush and release the shard (and its directory lock); closing twice is harmless."""
        with self._lock:
            if self._shard is not None:
                self._shard.close()
                self._shard = None
