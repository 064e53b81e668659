"""Wiring only: the reviewer consumes ReviewRequested and publishes ReviewCompleted."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from faststream.nats import NatsRouter

from sextant.bus import Bus, RouterFactory, consume
from sextant.chunkstore import ChunkStore
from sextant.contracts import Event, ReviewRequested
from sextant.embedding import DenseEmbedder
from sextant.reviewer.deps import ReviewerDeps
from sextant.reviewer.handlers import STAGE, on_review_requested

SERVICE_NAME = "reviewer"
DURABLE = "reviewer"


def create_router(bus: Bus, deps: ReviewerDeps) -> NatsRouter:
    """The reviewer's router: one durable consumer of ReviewRequested."""
    router = bus.router()

    async def handle(event: ReviewRequested) -> Sequence[Event]:
        return await on_review_requested(event, deps)

    consume(router, bus, event_type=ReviewRequested, durable=DURABLE, stage=STAGE, handle=handle)
    return router


def router_factory(
    env: Mapping[str, str], *, store: ChunkStore | None = None, embedder: DenseEmbedder | None = None
) -> RouterFactory:
    """A factory the runtime calls with the bus; adapters are built once, here (or shared)."""
    deps = ReviewerDeps.build(env, store=store, embedder=embedder)
    return lambda bus: create_router(bus, deps)
