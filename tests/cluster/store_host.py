"""A store-using service as its own process on the embedded engine: ``python store_host.py SERVICE``.

qdrant-edge, the embedded Qdrant engine, locks its folder, so two processes cannot hold one store at
once. This host holds the real store only for the length of one delivery: it opens the shared folder
(waiting while another process holds it), runs the service's own handler over it, and closes it
before the outputs are published and the delivery acknowledged. Two replicas' deliveries are thus
serialised at the store, where a Qdrant server would let them overlap; the rest is the product's:
the durable consumer the replicas share, redelivery after a kill, deterministic point ids, and the
engine's write-ahead log recovering a store whose writer was killed mid-write.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any, cast

from sextant.bootstrap import Adapters, HandlerFactory, bootstrap, service_spec
from sextant.bootstrap.declaration import AnyDeclaration
from sextant.bootstrap.registry import declared_services
from sextant.bus import Bus, DeliveryPolicy, EventHandler, build_broker, start_routers
from sextant.chunkstore import ChunkStore
from sextant.chunkstore.model_store import store_for_model
from sextant.contracts import Event
from sextant.telemetry import configure_logging

HOLDING = "holding the store for"
"""Logged once the store is open for a delivery."""
WROTE = "wrote points:"
"""Logged after each upsert returns: a test kills the process there, in the middle of a run."""
DELIVERY = DeliveryPolicy(ack_wait_seconds=15.0, heartbeat_seconds=2.0, max_deliver=20, backoff_seconds=(1.0,))
"""Shorter timers than the product's, so a killed replica's delivery comes back within seconds."""
OPEN_RETRY_SECONDS = 0.05

logger = logging.getLogger("store_host")


class AnnouncedWrites:
    """The real store, saying when each upsert has returned (everything else goes straight to it)."""

    def __init__(self, store: ChunkStore) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def upsert(self, points: Sequence[Any]) -> None:
        self._store.upsert(points)
        logger.info("%s %d", WROTE, len(points))


def open_when_free(env: Mapping[str, str], shared: Adapters) -> ChunkStore:
    """Open the shared store, waiting while another process holds its lock."""
    while True:
        try:
            return store_for_model(env, shared.embedder)
        except Exception as error:  # StoreHeldError ("lock held") while another process has it open
            if "WouldBlock" not in str(error) and "lock" not in str(error).lower():
                raise
            time.sleep(OPEN_RETRY_SECONDS)


def handed_over(declaration: AnyDeclaration, env: Mapping[str, str], shared: Adapters) -> HandlerFactory[Any]:
    """The service's handler, built for each delivery over the store opened for it."""

    def for_bus(bus: Bus) -> EventHandler[Any]:
        async def handle(event: Any) -> Sequence[Event]:
            store = await asyncio.to_thread(open_when_free, env, shared)
            logger.info("%s %s", HOLDING, event.event_id)
            try:
                adapters = bootstrap(
                    env,
                    store=cast(ChunkStore, AnnouncedWrites(store)),
                    embedder=shared.embedder,
                    sparse=shared.sparse,
                    mirrors=shared.mirrors,
                    model=shared.model,
                    tokens=shared.tokens,
                )
                return await declaration.build(adapters, env)(bus)(event)
            finally:
                store.close()

        return handle

    return for_bus


async def main(name: str) -> None:
    """Consume as ``name`` until killed."""
    env = dict(os.environ)
    configure_logging(env.get("LOG_LEVEL", "INFO"))
    declaration = next(d for d in declared_services() if d.name == name)
    shared = bootstrap(env)
    bus = Bus(build_broker(env["NATS_URL"]), service=name, delivery=DELIVERY)
    await start_routers(bus, [service_spec(declaration, handed_over(declaration, env, shared))])
    logger.info("%s consuming from the cluster", name)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
