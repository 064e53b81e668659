"""Wiring only: the recency scanner consumes RepoUpdated and publishes FileRecencyComputed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from faststream.nats import NatsRouter

from sextant.bus import Bus, RouterFactory, consume
from sextant.contracts import Event, RepoUpdated
from sextant.recency_scanner.config import RecencySettings
from sextant.recency_scanner.handlers import on_repo_updated

SERVICE_NAME = "recency-scanner"
DURABLE = "recency_scanner"


def create_router(bus: Bus, settings: RecencySettings) -> NatsRouter:
    """The scanner's router: one durable consumer of RepoUpdated."""
    router = bus.router()

    async def handle(event: RepoUpdated) -> Sequence[Event]:
        return await on_repo_updated(event, settings)

    consume(router, bus, event_type=RepoUpdated, durable=DURABLE, stage="recency_scanner", handle=handle)
    return router


def router_factory(env: Mapping[str, str]) -> RouterFactory:
    """A factory the runtime calls with the bus (settings read once, here)."""
    settings = RecencySettings.from_env(env)
    return lambda bus: create_router(bus, settings)
