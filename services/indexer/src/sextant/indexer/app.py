"""Wiring only: the indexer consumes FileRecencyComputed and publishes ChunksIndexed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence

from faststream.nats import NatsRouter

from sextant.bus import Bus, Progress, RouterFactory, consume, report_progress
from sextant.chunkstore import ChunkStore
from sextant.contracts import Event, FileRecencyComputed
from sextant.embedding import DenseEmbedder
from sextant.indexer.config import IndexerSettings
from sextant.indexer.deps import IndexerDeps
from sextant.indexer.handlers import STAGE, on_file_recency_computed
from sextant.indexer.progress import IndexProgress, ProgressCallback

SERVICE_NAME = "indexer"
DURABLE = "indexer"
PROGRESS_INTERVAL_SECONDS = 0.5
"""Least time between two progress reports of a run (the last one is always sent)."""


def bus_progress(bus: Bus, run_id: str) -> ProgressCallback:
    """A progress callback that publishes throttled, best-effort reports for the CLI's progress bar.

    Args:
        bus: The bus to publish on.
        run_id: The run being indexed.

    Returns:
        The callback.
    """
    pending: set[asyncio.Task[None]] = set()
    last_sent = 0.0

    def report(progress: IndexProgress) -> None:
        nonlocal last_sent
        now = time.monotonic()
        if progress.phase != "done" and now - last_sent < PROGRESS_INTERVAL_SECONDS:
            return
        last_sent = now
        message = Progress(
            run_id=run_id,
            stage=STAGE,
            done=progress.files_done,
            total=progress.files_total,
            unit="files",
            detail=f"{progress.chunks_done} chunks, {progress.files_unchanged} unchanged ({progress.phase})",
        )
        task = asyncio.get_running_loop().create_task(report_progress(bus, message))
        pending.add(task)  # keep a reference until it is sent
        task.add_done_callback(pending.discard)

    return report


def create_router(bus: Bus, deps: IndexerDeps) -> NatsRouter:
    """The indexer's router: one durable consumer of FileRecencyComputed."""
    router = bus.router()

    async def handle(event: FileRecencyComputed) -> Sequence[Event]:
        return await on_file_recency_computed(event, deps, bus_progress(bus, event.run_id))

    consume(router, bus, event_type=FileRecencyComputed, durable=DURABLE, stage=STAGE, handle=handle)
    return router


def router_factory(
    env: Mapping[str, str], *, store: ChunkStore | None = None, embedder: DenseEmbedder | None = None
) -> RouterFactory:
    """A factory the runtime calls with the bus; settings and adapters are built once, here.

    Args:
        env: The environment.
        store: A chunk store shared with other services in one process (None: open the configured one).
        embedder: A dense embedder shared likewise (None: build the configured one).

    Returns:
        ``bus -> router``.
    """
    deps = IndexerDeps.build(IndexerSettings.from_env(env), store=store, embedder=embedder)
    return lambda bus: create_router(bus, deps)
