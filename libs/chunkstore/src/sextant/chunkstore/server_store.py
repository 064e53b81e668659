"""Chunk store on a Qdrant server through qdrant-client (also runs against the client's local mode)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from qdrant_client import QdrantClient, models

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


def _repo_filter(repo_key: str, *extra: models.Condition) -> models.Filter:
    repo = models.FieldCondition(key="repo_key", match=models.MatchValue(value=repo_key))
    return models.Filter(must=[repo, *extra])


def _missing_dense_filter(repo_key: str) -> models.Filter:
    repo = models.FieldCondition(key="repo_key", match=models.MatchValue(value=repo_key))
    return models.Filter(must=[repo], must_not=[models.HasVectorCondition(has_vector=DENSE_VECTOR)])


def _point_vectors(point: ChunkPoint) -> dict[str, Any]:
    vectors: dict[str, Any] = {
        SPARSE_VECTOR: models.SparseVector(indices=point.sparse.indices, values=point.sparse.values)
    }
    if point.dense is not None:
        vectors[DENSE_VECTOR] = point.dense
    return vectors


def _paths_filter(repo_key: str, paths: list[str]) -> models.Filter:
    return _repo_filter(repo_key, models.FieldCondition(key="path", match=models.MatchAny(any=paths)))


def _unknown_age_overwrite(record: models.Record) -> models.OverwritePayloadOperation:
    payload = record.payload or {}
    # Only if the point was not rewritten since it was read (every upsert writes a new indexed_at), so a
    # concurrent writer's newer content is never replaced by the old payload read here.
    unchanged = models.Filter(
        must=[
            models.HasIdCondition(has_id=[record.id]),
            models.FieldCondition(key="indexed_at", match=models.MatchValue(value=payload.get("indexed_at", ""))),
        ]
    )
    return models.OverwritePayloadOperation(
        overwrite_payload=models.SetPayload(payload=with_unknown_age(payload), filter=unchanged)
    )


def _index_schema(field: IndexedField) -> models.PayloadSchemaType | models.KeywordIndexParams:
    if field in DATETIME_FIELDS:
        return models.PayloadSchemaType.DATETIME
    # Repositories are tenants of a shared collection: the server co-locates each one's points.
    return models.KeywordIndexParams(
        type=models.KeywordIndexType.KEYWORD, is_tenant=field is IndexedField.REPO_KEY or None
    )


def _is_local_mode(client: QdrantClient) -> bool:
    options = client.init_options
    return options.get("location") == ":memory:" or options.get("path") is not None


class QdrantServerChunkStore:
    """Chunk store in a Qdrant server collection; the distributed run mode.

    The client is injected (built from QDRANT_URL / QDRANT_API_KEY by `store_from_env`) and closed by
    `close()`. Every write waits for the server to apply it (`wait=True`).
    """

    def __init__(self, client: QdrantClient, collection: str, dimension: int) -> None:
        """Use the collection, creating it and its payload indexes when missing (idempotent).

        Args:
            client: A connected qdrant-client (server URL, or local mode for tests).
            collection: Collection name (see `collection_name`).
            dimension: Dense vector size; an existing collection of another size is refused.
        """
        self._client = client
        self._collection = collection
        self._dimension = dimension
        # A server handles concurrent requests itself; the client's local engine does not (a scroll
        # racing an upsert there fails with IndexError), so local mode serialises calls.
        self._serialised: AbstractContextManager[Any] = threading.Lock() if _is_local_mode(client) else nullcontext()
        self._ensure_collection()
        logger.info("using Qdrant collection %s", collection)

    @property
    def collection(self) -> str:
        """Name of the collection."""
        return self._collection

    def _ensure_collection(self) -> None:
        if not self._client.collection_exists(self._collection):
            try:
                self._client.create_collection(
                    self._collection,
                    vectors_config={
                        DENSE_VECTOR: models.VectorParams(size=self._dimension, distance=models.Distance.COSINE)
                    },
                    sparse_vectors_config={SPARSE_VECTOR: models.SparseVectorParams(modifier=models.Modifier.IDF)},
                )
            except Exception:
                # Another replica may have created it between our check and our create: that is fine.
                if not self._client.collection_exists(self._collection):
                    raise
        info = self._client.get_collection(self._collection)
        self._check_vectors(info)
        if _is_local_mode(self._client):
            return  # local mode has no payload indexes (it warns on each attempt)
        for field in IndexedField:
            if field.value not in info.payload_schema:
                self._client.create_payload_index(
                    self._collection, field.value, field_schema=_index_schema(field), wait=True
                )

    def _check_vectors(self, info: models.CollectionInfo) -> None:
        vectors = info.config.params.vectors
        dense = vectors.get(DENSE_VECTOR) if isinstance(vectors, dict) else None
        sparse = info.config.params.sparse_vectors or {}
        if dense is None or SPARSE_VECTOR not in sparse:
            raise ValueError(f"collection {self._collection} lacks the {DENSE_VECTOR}/{SPARSE_VECTOR} vectors")
        if dense.size != self._dimension:
            raise ValueError(f"collection {self._collection} holds {dense.size}-d vectors, not {self._dimension}-d")

    def upsert(self, points: Sequence[ChunkPoint]) -> None:
        """Write points, replacing any with the same id; applied by the server on return.

        Args:
            points: Points to write.
        """
        for point in points:
            if point.dense is not None:
                check_dimension(point.dense, self._dimension)
        for batch in batches(points, WRITE_BATCH):
            structs = [
                models.PointStruct(id=point.id, vector=_point_vectors(point), payload=payload_to_stored(point.payload))
                for point in batch
            ]
            with self._serialised:
                self._client.upsert(self._collection, points=structs, wait=True)

    def delete_points(self, ids: Collection[str]) -> None:
        """Delete points by id.

        Args:
            ids: Point ids.
        """
        for batch in batches(ids, WRITE_BATCH):
            selector = models.PointIdsList(points=list(batch))
            with self._serialised:
                self._client.delete(self._collection, points_selector=selector, wait=True)

    def delete_paths(self, repo_key: str, paths: Collection[str]) -> int:
        """Delete every point of the given files of one repository.

        Args:
            repo_key: Repository.
            paths: File paths.

        Returns:
            Points deleted (counted just before the delete; a concurrent writer can skew it).
        """
        deleted = 0
        for batch in batches(sorted(set(paths)), WRITE_BATCH):
            path_filter = _paths_filter(repo_key, batch)
            selector = models.FilterSelector(filter=path_filter)
            with self._serialised:
                deleted += self._client.count(self._collection, count_filter=path_filter, exact=True).count
                self._client.delete(self._collection, points_selector=selector, wait=True)
        return deleted

    def set_last_modified(self, repo_key: str, stamps: Mapping[str, str | None]) -> int:
        """Set `last_modified_at` on every point of the given files, without touching vectors.

        Args:
            repo_key: Repository.
            stamps: File path -> ISO date or None.

        Returns:
            Points re-stamped (counted just before each write; a concurrent writer can skew it).
        """
        dated, unknown = group_by_stamp(stamps)
        touched = 0
        for date, paths in dated.items():
            for batch in batches(paths, WRITE_BATCH):
                path_filter = _paths_filter(repo_key, batch)
                with self._serialised:
                    touched += self._client.count(self._collection, count_filter=path_filter, exact=True).count
                    self._client.set_payload(
                        self._collection, payload={LAST_MODIFIED_FIELD: date}, points=path_filter, wait=True
                    )
        for batch in batches(unknown, WRITE_BATCH):
            records = list(self._scroll(_paths_filter(repo_key, batch), WRITE_BATCH, True))
            for chunk in batches(records, WRITE_BATCH):
                operations: list[models.UpdateOperation] = [_unknown_age_overwrite(record) for record in chunk]
                with self._serialised:
                    self._client.batch_update_points(self._collection, update_operations=operations, wait=True)
            touched += len(records)
        return touched

    def _scroll(self, scroll_filter: models.Filter, page_size: int, with_payload: Any) -> Iterator[models.Record]:
        if page_size <= 0:
            raise ValueError("page_size must be positive")
        offset: models.ExtendedPointId | None = None
        while True:
            with self._serialised:
                records, offset = self._client.scroll(
                    self._collection,
                    scroll_filter=scroll_filter,
                    limit=page_size,
                    offset=offset,
                    with_payload=with_payload,
                    with_vectors=False,
                )
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
        records = self._scroll(_repo_filter(repo_key), 1024, list(FILE_INDEX_FIELDS))
        return build_file_index((str(record.id), record.payload or {}) for record in records)

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
        prefetch = [models.Prefetch(query=dense, using=DENSE_VECTOR, limit=candidates, filter=repo)]
        if sparse.indices:
            sparse_query = models.SparseVector(indices=sparse.indices, values=sparse.values)
            prefetch.append(models.Prefetch(query=sparse_query, using=SPARSE_VECTOR, limit=candidates, filter=repo))
        with self._serialised:
            response = self._client.query_points(
                self._collection,
                prefetch=prefetch,
                query=models.RrfQuery(rrf=models.Rrf(k=RRF_K)),
                query_filter=repo,
                limit=limit,
                with_payload=True,
                with_vectors=False,
            )
        return [
            ScoredChunk(id=str(hit.id), score=hit.score, payload=payload_from_stored(hit.payload))
            for hit in response.points
        ]

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
        extra = [models.FieldCondition(key="kind", match=models.MatchValue(value=kind))] if kind else []
        scope = _repo_filter(repo_key, *extra)
        sides: list[tuple[list[float] | models.SparseVector, str]] = []
        if dense is not None:
            check_dimension(dense, self._dimension)
            sides.append((dense, DENSE_VECTOR))
        if sparse is not None and sparse.indices:
            sides.append((models.SparseVector(indices=sparse.indices, values=sparse.values), SPARSE_VECTOR))
        if not sides:
            return []
        candidates = max(prefetch_limit, limit)
        with self._serialised:
            if len(sides) == 1:
                query, using = sides[0]
                response = self._client.query_points(
                    self._collection, query=query, using=using, query_filter=scope, limit=limit,
                    with_payload=True, with_vectors=False,
                )  # fmt: skip
            else:
                response = self._client.query_points(
                    self._collection,
                    prefetch=[models.Prefetch(query=q, using=u, limit=candidates, filter=scope) for q, u in sides],
                    query=models.RrfQuery(rrf=models.Rrf(k=RRF_K)),
                    query_filter=scope,
                    limit=limit,
                    with_payload=True,
                    with_vectors=False,
                )
        return [
            ScoredChunk(id=str(hit.id), score=hit.score, payload=payload_from_stored(hit.payload))
            for hit in response.points
        ]

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
        match: models.Match = models.MatchPrefix(prefix=name) if prefix else models.MatchValue(value=name)
        symbol = _repo_filter(repo_key, models.FieldCondition(key="symbol", match=match))
        with self._serialised:
            records, _ = self._client.scroll(
                self._collection, scroll_filter=symbol, limit=limit, with_payload=True, with_vectors=False
            )
        payloads = [payload_from_stored(record.payload) for record in records]
        return sorted(payloads, key=lambda payload: (payload.path, payload.start_line, payload.window))

    def count_missing_dense(self, repo_key: str) -> int:
        """Exact number of a repository's points without a dense vector.

        Args:
            repo_key: Repository.

        Returns:
            The count.
        """
        with self._serialised:
            return self._client.count(self._collection, count_filter=_missing_dense_filter(repo_key), exact=True).count

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
            Points that got their vector (checked just before the write; the write itself is
            conditional, so a point rewritten in between keeps no stale vector).
        """
        for update in updates:
            check_dimension(update.dense, self._dimension)
        written = 0
        for batch in batches(updates, WRITE_BATCH):
            with self._serialised:
                stored = self._client.retrieve(
                    self._collection, ids=[update.id for update in batch], with_payload=["indexed_at"]
                )
            current = {str(record.id): (record.payload or {}).get("indexed_at") for record in stored}
            fresh = [update for update in batch if current.get(update.id) == update.indexed_at]
            by_version: dict[str, list[DenseUpdate]] = {}
            for update in fresh:
                by_version.setdefault(update.indexed_at, []).append(update)
            for indexed_at, group in by_version.items():
                unchanged = models.Filter(
                    must=[models.FieldCondition(key="indexed_at", match=models.MatchValue(value=indexed_at))]
                )
                vectors = [models.PointVectors(id=update.id, vector={DENSE_VECTOR: update.dense}) for update in group]
                with self._serialised:
                    self._client.update_vectors(self._collection, points=vectors, update_filter=unchanged, wait=True)
            written += len(fresh)
        return written

    def count(self, repo_key: str) -> int:
        """Exact number of points of a repository.

        Args:
            repo_key: Repository.

        Returns:
            The count.
        """
        with self._serialised:
            return self._client.count(self._collection, count_filter=_repo_filter(repo_key), exact=True).count

    def close(self) -> None:
        """Close the client; closing twice is harmless."""
        with self._serialised:
            self._client.close()
