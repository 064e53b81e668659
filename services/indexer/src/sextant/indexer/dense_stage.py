"""The dense phase: after a ChunksIndexed, give every stored point of the repository its dense vector.

The index run stores payloads and sparse vectors and publishes ChunksIndexed at once, so selection,
doc claims and the analysis never wait on the model. This stage follows: it finds the points still
lacking a dense vector from the store itself (not from the event), embeds them page by page and adds
the vectors in place, then publishes ChunksEmbedded. Because the work list is the store's, an
interrupted pass (a crash, a restart, a provider outage) is finished by the next delivery or the next
run, and a point that has its vector is never embedded again. See docs/indexing.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from itertools import islice

from sextant.bus import DeliveryAbandoned, Lease
from sextant.chunkstore import ChunkStore, StoredChunk
from sextant.contracts import ChunksEmbedded, ChunksIndexed, event_id_for, utc_now_iso
from sextant.embedding import DenseEmbedder
from sextant.indexer.dense_vectors import EmbeddedPage, ProviderHealth, embed_chunks
from sextant.telemetry import tracer

logger = logging.getLogger(__name__)
_tracer = tracer(__name__)

STAGE = "embedder"
"""Stage name in progress reports and StageFailed."""
DURABLE = "indexer-dense"
"""Durable consumer of ChunksIndexed for this stage (separate from the selector's)."""
DENSE_PAGE_POINTS = 256
"""Points read, embedded and written together: several model batches keep the model busy, and a
crash loses at most one page of work."""


@dataclass(frozen=True)
class DenseProgress:
    """Where a dense pass stands: ``done`` of ``total`` points of the repository have their vector."""

    done: int
    total: int
    embedded: int
    """Vectors this pass wrote so far."""
    finished: bool = False


DenseProgressCallback = Callable[[DenseProgress], None]
"""Called from the event loop after each page; it must return quickly."""
RepoLease = Callable[[str], AbstractAsyncContextManager[Lease]]
"""``repo_key -> lease``: held for the whole pass, so one pass per repository runs across replicas."""


@contextlib.asynccontextmanager
async def _this_process_only(repo_key: str) -> AsyncIterator[Lease]:
    yield Lease(name=repo_key, holder="this process", revision=0)


@dataclass
class DenseStage:
    """The dense phase's adapters, and one pass per repository at a time in this process (the lease
    given to ``on_chunks_indexed`` extends that to every replica)."""

    store: ChunkStore
    embedder: DenseEmbedder
    page_points: int = DENSE_PAGE_POINTS
    _locks: dict[str, asyncio.Lock] = field(default_factory=dict, repr=False)

    def lock_for(self, repo_key: str) -> asyncio.Lock:
        """The lock serialising passes over one repository: a second pass waits, then finds less to do.

        Args:
            repo_key: Repository key.

        Returns:
            The lock.
        """
        return self._locks.setdefault(repo_key, asyncio.Lock())


async def on_chunks_indexed(
    event: ChunksIndexed,
    stage: DenseStage,
    progress: DenseProgressCallback | None = None,
    stopping: asyncio.Event | None = None,
    lease: RepoLease | None = None,
) -> list[ChunksEmbedded]:
    """Add dense vectors to every point of the event's repository that lacks one.

    A store or bug error is raised (the bus retries the delivery, and the retry resumes from the store);
    a provider that rejects chunks or goes down leaves those points without a vector and says so in the
    event (``complete=False``, ``reason``); the next pass picks them up. When ``stopping`` is set the
    pass stops before its next store write: the embedding call in flight is abandoned (its vectors
    were never stored), the pages written stay, and ``DeliveryAbandoned`` gives the delivery back.

    The pass holds the repository's ``lease`` from its first count to its last write, so of two
    replicas handling ChunksIndexed of one repository the second waits, then finds only what the first
    did not write: each missing vector is embedded once. A lease lost mid-pass (its renewal failed)
    stops the pass before the next page, and the delivery is given back.

    Args:
        event: The ChunksIndexed that finished the run's first phase.
        stage: Store and embedder.
        progress: Optional callback after each page.
        stopping: Set when the process shuts down (``Bus.stopping``).
        lease: The cross-process lease of a repository (default: this process's lock only).

    Returns:
        Exactly one ChunksEmbedded.

    Raises:
        DeliveryAbandoned: when ``stopping`` was set, or the lease lost, before the pass finished.
    """
    repo_key = event.repo.repo_key
    stop = stopping or asyncio.Event()
    async with stage.lock_for(repo_key), (lease or _this_process_only)(repo_key) as held:
        if stop.is_set():
            raise DeliveryAbandoned("stopping before the dense pass began")
        with _tracer.start_as_current_span("indexer.dense", attributes={"sextant.repo_key": repo_key}) as span:
            embedded = await _embed_missing(event, stage, progress, _Interruptions(stop, held))
            span.set_attributes(
                {
                    "sextant.points_embedded": embedded.points_embedded,
                    "sextant.points_missing": embedded.points_missing,
                    "sextant.embedding.model": stage.embedder.model_id,
                }
            )
    logger.info(
        "dense vectors of %s: %d written, %d of %d still missing, %.1f s",
        repo_key,
        embedded.points_embedded,
        embedded.points_missing,
        embedded.points_total,
        embedded.duration_seconds,
    )
    return [embedded]


@dataclass(frozen=True)
class _Interruptions:
    """What ends a pass early: the process stopping, or the repository's lease lost."""

    stopping: asyncio.Event
    lease: Lease

    def check(self, written: int) -> None:
        if self.stopping.is_set():
            raise DeliveryAbandoned(f"stopped after writing {written} vectors; the rest is resumed")
        if self.lease.lost:
            raise DeliveryAbandoned(f"lost the repository's lease after writing {written} vectors")


async def _embed_missing(
    event: ChunksIndexed, stage: DenseStage, progress: DenseProgressCallback | None, interruptions: _Interruptions
) -> ChunksEmbedded:
    started = time.perf_counter()
    calls_before = stage.embedder.calls
    repo_key = event.repo.repo_key
    total = await asyncio.to_thread(stage.store.count, repo_key)
    missing = await asyncio.to_thread(stage.store.count_missing_dense, repo_key)
    done = total - missing
    written = 0
    failures: dict[str, str] = {}
    health = ProviderHealth()
    if progress is not None:
        progress(DenseProgress(done=done, total=total, embedded=0))
    pending: Iterator[StoredChunk] = stage.store.scroll_missing_dense(repo_key, stage.page_points)
    while page := await asyncio.to_thread(_next_page, pending, stage.page_points):
        interruptions.check(written)
        result = await _unless_stopping(embed_chunks(page, stage.embedder, health), interruptions.stopping)
        failures.update(result.failed)
        if result.updates:
            added = await asyncio.to_thread(stage.store.add_dense_vectors, result.updates)
            written += added
            done += added
        if progress is not None:
            progress(DenseProgress(done=min(done, total), total=total, embedded=written))
        if health.outage is not None:
            break  # the rest waits for the next pass: calling a provider that is down only costs time
    total = await asyncio.to_thread(stage.store.count, repo_key)
    missing = await asyncio.to_thread(stage.store.count_missing_dense, repo_key)
    if progress is not None:
        progress(DenseProgress(done=total - missing, total=total, embedded=written, finished=True))
    return ChunksEmbedded(
        event_id=event_id_for(ChunksEmbedded, event.run_id, event.event_id),
        run_id=event.run_id,
        occurred_at=utc_now_iso(),
        repo=event.repo,
        head_sha=event.head_sha,
        collection=stage.store.collection,
        model=stage.embedder.model_id,
        points_total=total,
        points_embedded=written,
        points_missing=missing,
        complete=missing == 0,
        reason=_reason(missing, failures, health),
        embedding_calls=max(0, stage.embedder.calls - calls_before),
        duration_seconds=round(time.perf_counter() - started, 3),
    )


async def _unless_stopping(embedding: Awaitable[EmbeddedPage], stopping: asyncio.Event) -> EmbeddedPage:
    """The page's vectors, or ``DeliveryAbandoned`` (the call cancelled) if the process stops first."""
    call = asyncio.ensure_future(embedding)
    stopped = asyncio.ensure_future(stopping.wait())
    try:
        await asyncio.wait({call, stopped}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        stopped.cancel()
        abandoned = not call.done()
        if abandoned:
            call.cancel()
    if abandoned:
        raise DeliveryAbandoned("stopped while a page was being embedded; the pages written are kept")
    return call.result()


def _next_page(pending: Iterator[StoredChunk], size: int) -> list[StoredChunk]:
    return list(islice(pending, size))


def _reason(missing: int, failures: dict[str, str], health: ProviderHealth) -> str | None:
    if missing == 0:
        return None
    if health.outage is not None:
        return f"embedding provider unavailable: {health.outage} (the next pass resumes)"
    if failures:
        example = next(iter(sorted(failures.values())))
        return f"{len(failures)} chunks rejected by the embedding provider, e.g.: {example}"
    return "points were written while this pass ran (the next pass embeds them)"
