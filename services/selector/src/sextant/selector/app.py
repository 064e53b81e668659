"""Wiring only: the selector consumes ChunksIndexed and publishes ChunksSelected (analysis, summary)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from faststream.nats import NatsRouter

from sextant.bus import Bus, RouterFactory, consume
from sextant.contracts import ChunksIndexed, Event
from sextant.selection import PayloadSource
from sextant.selector.config import SelectorSettings
from sextant.selector.handlers import on_chunks_indexed

SERVICE_NAME = "selector"
DURABLE = "selector"


def create_router(bus: Bus, store: PayloadSource, settings: SelectorSettings) -> NatsRouter:
    """The selector's router: one durable consumer of ChunksIndexed."""
    router = bus.router()

    async def handle(event: ChunksIndexed) -> Sequence[Event]:
        return await on_chunks_indexed(event, store, settings)

    consume(router, bus, event_type=ChunksIndexed, durable=DURABLE, stage="selector", handle=handle)
    return router


def router_factory(env: Mapping[str, str], *, store: PayloadSource) -> RouterFactory:
    """A factory the runtime calls with the bus; the store is built once by the caller."""
    settings = SelectorSettings.from_env(env)
    return lambda bus: create_router(bus, store, settings)
