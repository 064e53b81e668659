"""Indexer tests: real git repositories, the real embedded store, the real model where semantics matter."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import os
from collections.abc import Callable, Collection, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from sextant.chunkstore import ChunkPayload, ChunkPoint, ChunkStore, FileEntry, collection_name
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import (
    ChunksEmbedded,
    ChunksIndexed,
    FileRecencyComputed,
    RecencyStatus,
    RepoRef,
    RepoUpdated,
)
from sextant.embedding import DenseEmbedder, LocalMiniLM
from sextant.gitsource.mirror import RepoMirror
from sextant.gitsource.recency import read_recency
from sextant.indexer import IndexerDeps, IndexerSettings, IndexProgress, index_repository
from sextant.indexer.dense_stage import DenseProgress, DenseStage, on_chunks_indexed
from sextant.indexer.discovery import DiscoveryRules
from sextant.indexer.history_hydration import history_fetches_settled

from ..support.embedders import FakeEmbedder as HashingTestEmbedder
from ..support.events import file_recency_computed, repo_updated
from ..support.provider_server import ProviderServer, Reply
from ..support.wire_formats import openai_embeddings, openai_error

_RUN_NUMBERS = itertools.count(1)


class OrderRecordingStore:
    """Delegates to a real store and records every write, so tests can check upsert-before-delete.

    After each write it also notes which watched paths still have points (a gap would show as False).
    """

    def __init__(self, inner: ChunkStore, repo_key: str, watched: Collection[str] = ()) -> None:
        self.inner = inner
        self.repo_key = repo_key
        self.watched = set(watched)
        self.log: list[tuple[str, int]] = []
        self.presence: list[dict[str, bool]] = []

    @property
    def collection(self) -> str:
        return self.inner.collection

    def _note(self, operation: str, size: int) -> None:
        self.log.append((operation, size))
        if self.watched:
            index = self.inner.file_index(self.repo_key)
            self.presence.append({path: path in index for path in self.watched})

    def upsert(self, points: Sequence[ChunkPoint]) -> None:
        self.inner.upsert(points)
        self._note("upsert", len(points))

    def delete_points(self, ids: Collection[str]) -> None:
        self.inner.delete_points(ids)
        self._note("delete_points", len(ids))

    def delete_paths(self, repo_key: str, paths: Collection[str]) -> int:
        deleted = self.inner.delete_paths(repo_key, paths)
        self._note("delete_paths", deleted)
        return deleted

    def file_index(self, repo_key: str) -> dict[str, FileEntry]:
        return self.inner.file_index(repo_key)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class IndexHarness:
    """Runs the indexer on a real repository and reads back what the real store holds."""

    def __init__(self, repo: Any, deps: IndexerDeps, branch: str | None = "main") -> None:
        self.repo = repo
        self.deps = deps
        self.ref = RepoRef.for_url(repo.url, branch=branch)
        self.progress: list[IndexProgress] = []
        self.dense_progress: list[DenseProgress] = []

    def request(self, *, run_id: str | None = None, **fields: Any) -> RepoUpdated:
        # Run ids are unique across harnesses too, as real ones (uuid4) are: a store records the run that
        # wrote each point, and a reused id would read as a retried delivery of that run.
        return repo_updated(self.ref, run_id or f"run-{next(_RUN_NUMBERS)}", **fields)

    def recency(
        self,
        request: RepoUpdated,
        status: RecencyStatus = "skipped",
        dates: dict[str, str | None] | None = None,
    ) -> FileRecencyComputed:
        return file_recency_computed(request, status, dates)

    async def run(
        self,
        *,
        status: RecencyStatus = "skipped",
        dates: dict[str, str | None] | None = None,
        **fields: Any,
    ) -> ChunksIndexed:
        request = self.request(**fields)
        indexed = await index_repository(request, self.recency(request, status, dates), self.deps, self.progress.append)
        await history_fetches_settled()  # a first run's history fetch follows its ChunksIndexed
        return indexed

    async def embed(self, indexed: ChunksIndexed, embedder: DenseEmbedder | None = None) -> ChunksEmbedded:
        """Run the dense phase after ``indexed`` (with another embedder, e.g. one that fails part-way)."""
        stage = DenseStage(store=self.deps.store, embedder=embedder or self.deps.embedder, page_points=8)
        [embedded] = await on_chunks_indexed(indexed, stage, self.dense_progress.append)
        return embedded

    async def run_and_embed(self, **fields: Any) -> tuple[ChunksIndexed, ChunksEmbedded]:
        indexed = await self.run(**fields)
        return indexed, await self.embed(indexed)

    def payloads(self) -> list[ChunkPayload]:
        return list(self.deps.store.scroll_payloads(self.ref.repo_key))

    def by_path(self) -> dict[str, list[ChunkPayload]]:
        grouped: dict[str, list[ChunkPayload]] = {}
        for payload in self.payloads():
            grouped.setdefault(payload.path, []).append(payload)
        return grouped

    def index(self) -> dict[str, FileEntry]:
        return self.deps.store.file_index(self.ref.repo_key)


def open_store(tmp_path: Path, embedder: DenseEmbedder) -> EdgeChunkStore:
    collection = collection_name(embedder.model_id, embedder.dimension)
    return EdgeChunkStore(tmp_path / "qdrant", collection, embedder.dimension)


def make_deps(
    tmp_path: Path, embedder: DenseEmbedder, store: ChunkStore, rules: DiscoveryRules | None = None
) -> IndexerDeps:
    settings = IndexerSettings(
        mirrors_dir=tmp_path / "mirrors",
        store_path=tmp_path / "qdrant",
        rules=rules or DiscoveryRules(),
        group_chunks=16,
    )
    return IndexerDeps(
        settings=settings,
        store=store,
        embedder=embedder,
        mirrors=RepoMirror(settings.mirrors_dir, timeout=60),
    )


@pytest.fixture
def hashing_embedder() -> HashingTestEmbedder:
    """The deterministic test embedder (bookkeeping tests only)."""
    return HashingTestEmbedder()


@pytest.fixture
def store(tmp_path: Path, hashing_embedder: HashingTestEmbedder) -> Iterator[EdgeChunkStore]:
    """A real embedded store in the test's temp folder."""
    chunk_store = open_store(tmp_path, hashing_embedder)
    yield chunk_store
    chunk_store.close()


@pytest.fixture
def harness(
    git_repo: Any, tmp_path: Path, hashing_embedder: HashingTestEmbedder, store: EdgeChunkStore
) -> IndexHarness:
    """Indexer over the test repository with the hashing embedder and a real embedded store."""
    return IndexHarness(git_repo, make_deps(tmp_path, hashing_embedder, store))


BuildHarness = Callable[..., IndexHarness]


@pytest.fixture
def build_harness(git_repo: Any, tmp_path: Path) -> Iterator[BuildHarness]:
    """Build a harness with a chosen embedder, store (default: a fresh embedded one) and rules."""
    opened: list[EdgeChunkStore] = []

    def build(
        embedder: DenseEmbedder,
        *,
        store: ChunkStore | None = None,
        rules: DiscoveryRules | None = None,
        branch: str | None = "main",
        url: str | None = None,
    ) -> IndexHarness:
        if store is None:
            edge = open_store(tmp_path, embedder)
            opened.append(edge)
            store = edge
        harness = IndexHarness(git_repo, make_deps(tmp_path, embedder, store, rules), branch=branch)
        if url is not None:
            harness.ref = RepoRef.for_url(url, branch=branch)
        return harness

    yield build
    for edge in opened:
        edge.close()


@pytest.fixture
def scan_recency(git_repo: Any) -> Callable[[], dict[str, str | None]]:
    """The recency map of the test repository's head, from the real one-pass git log scan."""

    def scan() -> dict[str, str | None]:
        return read_recency(git_repo.root / ".git", "HEAD", env=os.environ)[1]

    return scan


@pytest.fixture
def recording_store() -> Callable[..., OrderRecordingStore]:
    """Wrap a real store to record the order of writes (and watch paths for gaps)."""
    return OrderRecordingStore


@pytest.fixture
def fail_marker() -> str:
    """Text the local embeddings server rejects."""
    return FAIL_MARKER


@pytest.fixture(scope="session")
def minilm() -> LocalMiniLM:
    """The real local model, loaded once per session."""
    embedder = LocalMiniLM()
    asyncio.run(embedder.load())
    return embedder


FAIL_MARKER = "EMBEDDING_REJECTS_THIS"


class OpenAIEmbeddings(ProviderServer):
    """The shared provider server answering OpenAI's /v1/embeddings with a vector per input. It rejects
    a request holding FAIL_MARKER with a 400 (as a provider's content or length check would) while
    ``reject_marker`` is set, and every request with ``fail_all_status`` while that is set."""

    def __init__(self, dimension: int = 16) -> None:
        self.dimension = dimension
        self.reject_marker = True
        self.fail_all_status: int | None = None
        super().__init__(answer=self._answer)

    @property
    def base_url(self) -> str:
        return f"{self.url}/v1"

    def vector(self, text: str) -> list[float]:
        digest = hashlib.sha256(text.encode()).digest()
        return [(byte - 127.5) / 127.5 for byte in digest[: self.dimension]]

    def _answer(self, request: Any) -> Any:
        inputs: list[str] = request["input"]
        if self.fail_all_status is not None:
            return Reply(status=self.fail_all_status, body=openai_error("overloaded", "server_error"))
        if self.reject_marker and any(FAIL_MARKER in text for text in inputs):
            return Reply(status=400, body=openai_error("input rejected"))
        return openai_embeddings([self.vector(text) for text in inputs], model=request["model"])


@pytest.fixture
def embeddings_server() -> Iterator[OpenAIEmbeddings]:
    """A local OpenAI-format embeddings provider (the shared scripted provider server)."""
    with OpenAIEmbeddings() as server:
        yield server
