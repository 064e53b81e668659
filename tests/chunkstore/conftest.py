"""The chunk store contract runs against every adapter: embedded edge, client local mode, a real server."""

from __future__ import annotations

import itertools
import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from qdrant_client import QdrantClient

from sextant.chunkstore import ChunkPayload, ChunkPoint, ChunkStore, SparseVector, point_id
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.chunkstore.server_store import QdrantServerChunkStore

from ..support.containers import container_url

DIMENSION = 8
QDRANT_IMAGE = "qdrant/qdrant:v1.16.3"

_collection_numbers = itertools.count()
_SESSION = uuid.uuid4().hex[:8]

MakePoint = Callable[..., ChunkPoint]


@pytest.fixture(scope="session")
def qdrant_server_url() -> Iterator[str]:
    """A real Qdrant server: the one QDRANT_URL names, else one in a container (skipped without
    testcontainers or a Docker engine)."""
    configured = os.environ.get("QDRANT_URL", "").strip()
    if configured:
        yield configured
        return
    yield from container_url(QDRANT_IMAGE, 6333, "Qdrant HTTP listening", "http")


@pytest.fixture(
    params=["edge", "client-local", pytest.param("server", marks=pytest.mark.docker)],
)
def store_factory(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], ChunkStore]]:
    """Opens a store on the same engine and collection; after a close, edge and server see the same data
    again (client local mode in memory starts empty)."""
    # The session's own prefix: a server named by QDRANT_URL may keep collections of earlier runs.
    collection = f"sextant_chunks__test_{_SESSION}_{next(_collection_numbers)}__{DIMENSION}"
    opened: list[ChunkStore] = []
    kind: str = request.param

    def open_store() -> ChunkStore:
        store: ChunkStore
        if kind == "edge":
            store = EdgeChunkStore(tmp_path, collection, DIMENSION)
        elif kind == "client-local":
            # ":memory:" rather than path=: the same server API, several times faster (PLATFORM.md).
            store = QdrantServerChunkStore(QdrantClient(":memory:"), collection, DIMENSION)
        else:
            store = QdrantServerChunkStore(_server_client(request), collection, DIMENSION)
        opened.append(store)
        return store

    yield open_store
    for store in opened:
        store.close()
    if kind == "server" and opened:  # a server that was reached keeps nothing of this test
        client = _server_client(request)
        try:
            client.delete_collection(collection)
        finally:
            client.close()


def _server_client(request: pytest.FixtureRequest) -> QdrantClient:
    url = request.getfixturevalue("qdrant_server_url")
    return QdrantClient(url=url, api_key=os.environ.get("QDRANT_API_KEY", "").strip() or None)


@pytest.fixture
def store(store_factory: Callable[[], ChunkStore]) -> ChunkStore:
    """A fresh, empty store (own collection) on each adapter."""
    return store_factory()


def _unit(axis: int) -> list[float]:
    vector = [0.01] * DIMENSION
    vector[axis % DIMENSION] = 1.0
    return vector


@pytest.fixture
def make_point() -> MakePoint:
    """Builds a point with a deterministic id; keyword arguments override payload fields."""

    def build(
        repo_key: str,
        path: str,
        start_line: int = 1,
        *,
        dense: list[float] | None = None,
        sparse: SparseVector | None = None,
        symbol: str | None = None,
        **payload_fields: Any,
    ) -> ChunkPoint:
        fields: dict[str, Any] = {
            "repo_key": repo_key,
            "path": path,
            "blob_sha": "a" * 40,
            "kind": "code",
            "language": "python",
            "symbol": symbol,
            "start_line": start_line,
            "end_line": start_line + 9,
            "text": f"def f_{start_line}():\n    return {start_line}\n",
            "indexed_at": "2026-01-01T00:00:00+00:00",
            **payload_fields,
        }
        return ChunkPoint(
            id=point_id(repo_key, path, symbol, start_line, fields.get("window", 0)),
            dense=dense or _unit(start_line),
            sparse=sparse or SparseVector(indices=[start_line % 97, 1000], values=[1.0, 1.0]),
            payload=msgspec.convert(fields, ChunkPayload),
        )

    return build
