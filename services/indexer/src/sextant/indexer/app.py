"""Wiring only: the indexer consumes FileRecencyComputed and publishes ChunksIndexed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence

from sextant.bootstrap import Adapters, HandlerFactory, ServiceDeclaration
from sextant.bus import Bus, EventHandler, Progress, report_progress
from sextant.contracts import ChunksIndexed, Event, FileRecencyComputed, StageFailed
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


def handler_for(deps: IndexerDeps) -> HandlerFactory[FileRecencyComputed]:
    """The indexer's handler over ready-made dependencies (tests build their own).

    Args:
        deps: Settings and adapters of the indexer.

    Returns:
        ``bus -> handler``; progress is reported on that bus.
    """

    def for_bus(bus: Bus) -> EventHandler[FileRecencyComputed]:
        async def handle(event: FileRecencyComputed) -> Sequence[Event]:
            return await on_file_recency_computed(event, deps, bus_progress(bus, event.run_id))

        return handle

    return for_bus


def build_handler(adapters: Adapters, env: Mapping[str, str]) -> HandlerFactory[FileRecencyComputed]:
    """The indexer's handler over the shared adapters; settings read once, here.

    Args:
        adapters: Shared adapters (store, embedder, sparse encoder, mirrors, tokens).
        env: Environment the settings are read from (INDEX_*).

    Returns:
        ``bus -> handler``.
    """
    return handler_for(IndexerDeps.from_adapters(IndexerSettings.from_env(env), adapters))


SERVICE: ServiceDeclaration[FileRecencyComputed] = ServiceDeclaration(
    name=SERVICE_NAME,
    stage=STAGE,
    durable=DURABLE,
    consumes=FileRecencyComputed,
    produces=(ChunksIndexed, StageFailed),
    build=build_handler,
    summary="Indexes the changed files: symbols and sparse vectors (the embedder adds dense), stale points removed.",
)
