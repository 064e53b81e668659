"""The review searches hybrid when every chunk has its dense vector, sparse-only until then, and says which."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

from sextant.chunkstore import ChunkPayload, ChunkPoint, point_id
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import RepoRef
from sextant.embedding import SparseEncoder
from sextant.gitsource.mirror import RepoMirror
from sextant.rerank import LocalReranker
from sextant.reviewer.config import ReviewerSettings
from sextant.reviewer.deps import ReviewerDeps
from sextant.reviewer.handlers import on_review_requested

from ..support.diffs import one_line_change
from ..support.embedders import FakeEmbedder
from ..support.events import review_requested
from ..support.payloads import chunk_payload

REPO = RepoRef.for_url("https://example.com/acme/shop.git")
COLLECTION = "search_mode"
DIFF = one_line_change(
    "shop/orders.py", "def place_order(item):", "def place_order(item, quantity):", "    return item"
)


def payload(path: str, text: str) -> ChunkPayload:
    return chunk_payload(REPO.repo_key, path, text, last_modified_at="2026-06-01")


def write_full_point(base: Path, chunk: ChunkPayload) -> None:
    store = EdgeChunkStore(base, COLLECTION, FakeEmbedder.letters().dimension)
    try:
        [sparse] = SparseEncoder().encode_documents([chunk.text])
        dense = FakeEmbedder.letters().vector(chunk.text)
        pid = point_id(chunk.repo_key, chunk.path, chunk.symbol, chunk.start_line, 0)
        store.upsert([ChunkPoint(id=pid, dense=dense, sparse=sparse, payload=chunk)])
    finally:
        store.close()


def write_sparse_only_point(base: Path, chunk: ChunkPayload) -> None:
    # What the indexer stores before its dense pass: the payload and the sparse vector alone.
    store = EdgeChunkStore(base, COLLECTION, FakeEmbedder.letters().dimension)
    try:
        [sparse] = SparseEncoder().encode_documents([chunk.text])
        store.upsert([ChunkPoint(id=str(uuid.uuid4()), dense=None, sparse=sparse, payload=chunk)])
    finally:
        store.close()


async def review(base: Path, tmp_path: Path) -> Any:
    store = EdgeChunkStore(base, COLLECTION, FakeEmbedder.letters().dimension)
    deps = ReviewerDeps(
        settings=ReviewerSettings(), store=store, embedder=FakeEmbedder.letters(), sparse=SparseEncoder(),
        reranker=LocalReranker(), model=None, mirror=RepoMirror(tmp_path / "mirrors"),
    )  # fmt: skip
    request = review_requested(REPO, title="Add quantity", diff=DIFF)
    try:
        [completed] = await on_review_requested(request, deps)
    finally:
        store.close()
    return completed


async def test_every_dense_vector_present_means_hybrid(tmp_path: Path) -> None:
    base = tmp_path / "qdrant"
    write_full_point(base, payload("shop/orders.py", "def place_order(item):\n    return item\n"))
    completed = await review(base, tmp_path)
    assert (completed.provenance.search, completed.provenance.dense_vectors) == ("hybrid", True)
    assert [c.path for c in completed.provenance.chunks] == ["shop/orders.py"]
    assert "hybrid search (dense + sparse)" in completed.markdown


async def test_missing_dense_vectors_mean_sparse_only_and_it_says_so(tmp_path: Path) -> None:
    base = tmp_path / "qdrant"
    write_full_point(base, payload("shop/orders.py", "def place_order(item):\n    return item\n"))
    write_sparse_only_point(base, payload("shop/cart.py", "def place_order_later(item):\n    return item\n"))
    completed = await review(base, tmp_path)
    assert (completed.provenance.search, completed.provenance.dense_vectors) == ("sparse-only", False)
    assert {c.path for c in completed.provenance.chunks} == {"shop/orders.py", "shop/cart.py"}
    assert any("dense vectors are not complete yet (1 chunks" in warning for warning in completed.warnings)
    assert "sparse-only search" in completed.markdown
