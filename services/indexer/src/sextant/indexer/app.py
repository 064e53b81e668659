"""Wiring only: the indexer consumes FileRecencyComputed and publishes ChunksIndexed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from faststream.nats import NatsRouter

from sextant.bus import Bus, RouterFactory, consume
from sextant.chunkstore import ChunkStore
from sextant.contracts import Event, FileRecencyComputed
from sextant.embedding import DenseEmbedder
from sextant.indexer.config import IndexerSettings
from sextant.indexer.deps import IndexerDeps
from sextant.indexer.handlers import STAGE, on_file_recency_computed

SERVICE_NAME = "indexer"
DURABLE = "indexer"


def create_router(bus: Bus, deps: IndexerDeps) -> NatsRouter:
    """The indexer's router: one durable consumer of FileRecencyComputed."""
    router = NatsRouter()

    async def handle(event: FileRecencyComputed) -> Sequence[Event]:
        return await on_file_recency_computed(event, deps)

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
