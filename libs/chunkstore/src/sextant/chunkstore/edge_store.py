"""Chunk store on qdrant-edge-py: Qdrant's in-process engine, one shard directory per collection."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import qdrant_edge as qe

from sextant.chunkstore.last_modified import with_unknown_age
from sextant.chunkstore.payload import SparseVector
from sextant.chunkstore.points import ChunkPoint, DenseUpdate
from sextant.chunkstore.schema import (
    DATETIME_FIELDS,
    DENSE_VECTOR,
    FILE_VERSION_FIELD,
    FRESHNESS_FIELD,
    RRF_K,
    SPARSE_VECTOR,
    IndexedField,
    payload_to_stored,
    stored_freshness,
)
from sextant.chunkstore.scope import Match, Scope
from sextant.chunkstore.store_base import ChunkStoreBase, Side, WithPayload
from sextant.config import try_lock_file

logger = logging.getLogger(__name__)

FOLDER_LOCK = ".sextant-open.lock"
"""Lock file beside the engine's files, held from before the engine opens them until after it closed them."""

_MATCHES: dict[Match, Any] = {Match.VALUE: qe.MatchValue, Match.ANY: qe.MatchAny, Match.PREFIX: qe.MatchPrefix}


def _filter(scope: Scope) -> qe.Filter:
    must: list[Any] = [
        qe.FieldCondition(cond.field.value, match=_MATCHES[cond.match](cond.value)) for cond in scope.must
    ]
    return qe.Filter(must=must, must_not=[qe.HasVectorCondition(DENSE_VECTOR)] if scope.without_dense else None)


def _payload_selector(with_payload: WithPayload) -> Any:
    return with_payload if isinstance(with_payload, bool) else qe.PayloadSelector.Include(with_payload)


class StoreHeldError(BlockingIOError):
    """Another process has the store open (its folder lock is held)."""


def _hold_folder(directory: Path) -> int:
    # The engine's own lock is taken part-way through its open: a process whose open is refused has
    # already read the segments, and its next open (after the holder closed) can show that stale view
    # without the holder's later writes. Our lock is taken first, so a refused open reads nothing.
    descriptor = try_lock_file(directory / FOLDER_LOCK, mode=0o644)
    if descriptor is None:
        raise StoreHeldError(f"chunk store at {directory} is open in another process (lock held)")
    return descriptor


def _index_schema(field: IndexedField) -> Any:
    if field in DATETIME_FIELDS:
        return qe.PayloadSchemaType.Datetime
    # Repositories are tenants of a shared collection: the engine groups their points on disk.
    return qe.KeywordIndexParams(is_tenant=field is IndexedField.REPO_KEY)


class EdgeChunkStore(ChunkStoreBase):
    """Embedded chunk store on disk, the default run mode.

    The shard lives in `path / collection`, so several embedding models can sit under one base folder.
    The engine writes a WAL (a process that dies after `upsert` returns loses nothing; tested with
    `os._exit`, not with power loss). One process owns a store at a time: an exclusive lock on the
    directory is taken before the engine reads anything and released after it has closed, so an open
    refused while another process holds the store leaves nothing behind in this one
    (`StoreHeldError`; retry later). qdrant-edge-py 0.9 keeps the GIL for the
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
        super().__init__(collection, dimension)
        self._lock = threading.RLock()
        self._directory = path / collection
        config = qe.EdgeConfig(
            vectors={DENSE_VECTOR: qe.EdgeVectorParams(size=dimension, distance=qe.Distance.Cosine)},
            sparse_vectors={SPARSE_VECTOR: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        )
        self._folder_lock: int | None = _hold_folder(self._directory)
        self._shard: qe.EdgeShard | None = None
        try:
            if (self._directory / "edge_config.json").exists():
                # Passing the config makes the engine check that the stored vectors are compatible.
                self._shard = qe.EdgeShard.load(str(self._directory), config)
            else:
                self._shard = qe.EdgeShard.create(str(self._directory), config)
            self._ensure_payload_indexes()
        except BaseException:
            self.close()  # release the directory locks, or no later open could succeed
            raise
        logger.info("opened embedded chunk store %s at %s", collection, self._directory)

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

    def _guard(self) -> AbstractContextManager[Any]:
        # This process owns the shard, so holding the lock keeps a read true for the write after it.
        return self._lock

    def _sparse(self, sparse: SparseVector) -> qe.SparseVector:
        return qe.SparseVector(sparse.indices, sparse.values)

    def _write(self, points: list[ChunkPoint]) -> None:
        # indexed_at under `file`: this adapter never filters on it (see `_indexed_at`), one value fewer.
        engine_points = [
            qe.Point(point.id, self._vectors(point), payload_to_stored(point.payload, freshness_alone=False))
            for point in points
        ]
        with self._open_shard() as shard:
            shard.update(qe.UpdateOperation.upsert_points(engine_points))

    def _delete_ids(self, ids: list[str]) -> None:
        with self._open_shard() as shard:
            shard.update(qe.UpdateOperation.delete_points(list(ids)))

    def _count(self, scope: Scope) -> int:
        with self._open_shard() as shard:
            return shard.count(qe.CountRequest(exact=True, filter=_filter(scope)))

    def _delete_scope(self, scope: Scope) -> None:
        with self._open_shard() as shard:
            shard.update(qe.UpdateOperation.delete_points_by_filter(_filter(scope)))

    def _set_payload(self, scope: Scope, payload: dict[str, Any]) -> None:
        with self._open_shard() as shard:
            shard.update(qe.UpdateOperation.set_payload_by_filter(_filter(scope), payload))

    def _overwrite_unknown_age(self, records: list[qe.Record]) -> None:
        with self._open_shard() as shard:
            for record in records:
                shard.update(qe.UpdateOperation.overwrite_payload([record.id], with_unknown_age(record.payload or {})))

    def _scroll_page(
        self, scope: Scope, offset: Any, limit: int, with_payload: WithPayload
    ) -> tuple[list[qe.Record], Any]:
        request = qe.ScrollRequest(
            offset=offset,
            limit=limit,
            filter=_filter(scope),
            with_payload=_payload_selector(with_payload),
            with_vector=False,
        )
        with self._open_shard() as shard:
            return shard.scroll(request)

    def _query(self, scope: Scope, sides: list[Side], limit: int, fuse_candidates: int | None) -> list[qe.ScoredPoint]:
        scope_filter = _filter(scope)
        queries = [qe.Query.Nearest(vector, using=using) for vector, using in sides]
        if fuse_candidates is None:
            request = qe.QueryRequest(
                limit=limit, query=queries[0], filter=scope_filter, with_payload=True, with_vector=False
            )
        else:
            request = qe.QueryRequest(
                limit=limit,
                prefetches=[qe.Prefetch(limit=fuse_candidates, query=query, filter=scope_filter) for query in queries],
                query=qe.Fusion.Rrf(k=RRF_K),  # type: ignore[arg-type]  # the 0.9 stub omits the nested Rrf
                filter=scope_filter,
                with_payload=True,
                with_vector=False,
            )
        with self._open_shard() as shard:
            return shard.query(request)

    def _indexed_at(self, ids: list[str]) -> dict[str, Any]:
        with self._open_shard() as shard:
            stored = shard.retrieve(list(ids), qe.PayloadSelector.Include([FRESHNESS_FIELD, FILE_VERSION_FIELD]), False)
        return {str(record.id): stored_freshness(record.payload) for record in stored}

    def _write_dense(self, updates: list[DenseUpdate]) -> None:
        vectors = [qe.PointVectors(update.id, {DENSE_VECTOR: update.dense}) for update in updates]
        with self._open_shard() as shard:
            shard.update(qe.UpdateOperation.update_vectors(vectors))

    def optimize(self) -> bool:
        """Merge and index segments after a bulk load (blocks, and holds the GIL, while it runs).

        Returns:
            True when anything was optimised.
        """
        with self._open_shard() as shard:
            return shard.optimize()

    def close(self) -> None:
        """Flush and release the shard, then its directory lock; closing twice is harmless."""
        with self._lock:
            try:
                if self._shard is not None:
                    self._shard.flush()
                    self._shard.close()
                    self._shard = None
            finally:
                if self._folder_lock is not None:
                    os.close(self._folder_lock)  # closing the descriptor releases the lock
                    self._folder_lock = None
