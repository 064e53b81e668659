"""Wiring only: the indexer consumes FileRecencyComputed and publishes ChunksIndexed (and, when a first
run's history fetch follows it, HistoryHydrated once that fetch ends)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence

from sextant.bootstrap import Adapters, HandlerFactory, ServiceDeclaration
from sextant.bus import Bus, EventHandler, throttled_progress_sender
from sextant.contracts import ChunksIndexed, Event, FileRecencyComputed, HistoryHydrated, StageFailed
from sextant.indexer.config import IndexerSettings
from sextant.indexer.deps import IndexerDeps
from sextant.indexer.handlers import STAGE, on_file_recency_computed
from sextant.indexer.progress import IndexProgress, ProgressCallback

SERVICE_NAME = "indexer"
DURABLE = "indexer"


def bus_progress(bus: Bus, run_id: str) -> ProgressCallback:
    """A callback publishing throttled, best-effort reports of an index run for the CLI's progress bar."""
    send = throttled_progress_sender(bus, run_id, STAGE, unit="files")

    def report(progress: IndexProgress) -> None:
        detail = f"{progress.chunks_done} chunks, {progress.files_unchanged} unchanged ({progress.phase})"
        send(progress.files_done, progress.files_total, detail, last=progress.phase == "done")

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
            outputs_stored = asyncio.Event()

            async def announce(history: HistoryHydrated) -> None:
                # The fetch that may follow the run outlives this delivery, so its news is published
                # here, and only once the run's ChunksIndexed is stored: a reader finds the run first.
                await outputs_stored.wait()
                await bus.publish(history)

            try:
                outputs = await on_file_recency_computed(event, deps, bus_progress(bus, event.run_id), announce)
                if not any(isinstance(output, ChunksIndexed) and output.history_fetch_follows for output in outputs):
                    return outputs
                for output in outputs:  # published here, before the delivery is acked, as the bus would
                    await bus.publish(output)
            finally:
                outputs_stored.set()
            return []

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
    produces=(ChunksIndexed, HistoryHydrated, StageFailed),
    build=build_handler,
    summary="Indexes the changed files: symbols and sparse vectors (the embedder adds dense), stale points removed.",
)
