"""A consumer on a real nats-server in a few lines, and what a durable still holds.

The bus tests and the fault suite start stand-in stages with ``start_consumer`` (the production
``consume`` wiring, short redelivery settings) and read back the stream with ``collect``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from faststream.nats import NatsRouter

from sextant.bus import Bus, DeliveryPolicy, build_broker, consume
from sextant.contracts import STREAM_NAME, Event, RepoUpdated

FAST = DeliveryPolicy(ack_wait_seconds=1.0, heartbeat_seconds=0.3, max_deliver=3, backoff_seconds=(0.1,))
"""Redelivery settings short enough for a test (production: 60 s ack wait, 5 deliveries)."""


async def collect(bus: Bus, subject: str = "sextant.>") -> list[Event | None]:
    """Every event stored on ``subject``, in stream order (None for a body that cannot be decoded)."""
    return [event async for _, event, _ in bus.read(subject)]


async def start_consumer(
    nats_url: str,
    handle: Callable[[Any], Awaitable[Sequence[Event]]],
    durable: str = "svc",
    delivery: DeliveryPolicy = FAST,
    event_type: type[Event] = RepoUpdated,
) -> Bus:
    """A started bus whose durable ``durable`` feeds every ``event_type`` event to ``handle``."""
    bus = Bus(build_broker(nats_url), delivery=delivery)
    router = NatsRouter()
    consume(router, bus, event_type=event_type, durable=durable, stage="test", handle=handle)
    bus.broker.include_router(router)
    await bus.connect()
    await bus.broker.start()
    return bus


async def unsettled(bus: Bus, durable: str) -> tuple[int, int]:
    """(messages not yet delivered, deliveries not yet acked) of a durable: (0, 0) once it is drained."""
    info = await bus.js.consumer_info(STREAM_NAME, durable)
    return info.num_pending or 0, info.num_ack_pending or 0
