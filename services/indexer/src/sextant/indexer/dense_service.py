"""The dense phase as a service of its own ("embedder"): ChunksIndexed in, ChunksEmbedded out.

It lives in the indexer's package because it writes the same store with the same embedder, but it is
declared separately (its own durable consumer, stage and replicas), so selection and analysis never
wait on it and it can be scaled or moved on its own. Progress goes to the CLI as
``Progress(stage="embedder", unit="vectors", done, total)``. See docs/indexing.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sextant.bootstrap import Adapters, HandlerFactory, ServiceDeclaration
from sextant.bus import Bus, EventHandler, throttled_progress_sender
from sextant.config import env_int
from sextant.contracts import ChunksEmbedded, ChunksIndexed, Event
from sextant.indexer.dense_stage import (
    DENSE_PAGE_POINTS,
    DURABLE,
    STAGE,
    DenseProgress,
    DenseProgressCallback,
    DenseStage,
    on_chunks_indexed,
)

SERVICE_NAME = "embedder"
PROGRESS_UNIT = "vectors"
"""``Progress.unit`` of the dense phase: ``done`` of ``total`` points have their dense vector."""
LEASE_PREFIX = "embedder/"
"""Lease name of a repository's dense pass: ``embedder/<repo_key>``."""
PAGE_POINTS_VARIABLE = "EMBEDDER_PAGE_POINTS"
"""Points read, embedded and written together (default ``DENSE_PAGE_POINTS``)."""
PROGRESS_DETAIL = "vectors for review search"
"""``Progress.detail`` prefix the CLI can show as is."""


def dense_bus_progress(bus: Bus, run_id: str) -> DenseProgressCallback:
    """A callback publishing throttled, best-effort reports of the dense phase of a run."""
    send = throttled_progress_sender(bus, run_id, STAGE, unit=PROGRESS_UNIT)

    def report(progress: DenseProgress) -> None:
        detail = f"{PROGRESS_DETAIL}: {progress.done}/{progress.total}" + (" (done)" if progress.finished else "")
        send(progress.done, progress.total, detail, last=progress.finished)

    return report


def handler_for(stage: DenseStage) -> HandlerFactory[ChunksIndexed]:
    """The dense phase's handler over ready-made adapters (tests build their own).

    Args:
        stage: Store and embedder.

    Returns:
        ``bus -> handler``; progress is reported on that bus.
    """

    def for_bus(bus: Bus) -> EventHandler[ChunksIndexed]:
        async def handle(event: ChunksIndexed) -> Sequence[Event]:
            return await on_chunks_indexed(
                event,
                stage,
                dense_bus_progress(bus, event.run_id),
                bus.stopping,
                lambda repo_key: bus.leases.hold(f"{LEASE_PREFIX}{repo_key}", stopping=bus.stopping),
            )

        return handle

    return for_bus


def build_handler(adapters: Adapters, env: Mapping[str, str]) -> HandlerFactory[ChunksIndexed]:
    """The dense phase's handler over the shared store and embedder.

    Args:
        adapters: Shared adapters.
        env: The environment (``EMBEDDER_PAGE_POINTS``).

    Returns:
        ``bus -> handler``.
    """
    page_points = max(1, env_int(env, PAGE_POINTS_VARIABLE, DENSE_PAGE_POINTS))
    return handler_for(DenseStage(store=adapters.store, embedder=adapters.embedder, page_points=page_points))


SERVICE: ServiceDeclaration[ChunksIndexed] = ServiceDeclaration(
    name=SERVICE_NAME,
    stage=STAGE,
    durable=DURABLE,
    consumes=ChunksIndexed,
    produces=(ChunksEmbedded,),
    build=build_handler,
    summary="Adds dense vectors to the points an index run stored with payload and sparse vector only.",
)
