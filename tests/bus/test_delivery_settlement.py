"""How ``Bus.process`` settles one delivery, driven directly with a message pulled from a real server."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from faststream.nats import NatsMessage
from nats.aio.msg import Msg
from nats.js.api import ConsumerConfig

from sextant.bus import Bus, DeliveryPolicy
from sextant.bus.delivery import process_delivery
from sextant.contracts import STREAM_NAME, Event, EventParked, RepoUpdated, StageFailed, subject_pattern

from .test_bus_real_server import REPO, collect, repo_updated

HEARTBEAT = DeliveryPolicy(ack_wait_seconds=30.0, heartbeat_seconds=0.05, max_deliver=2, backoff_seconds=(0.1,))


async def pull_one(bus: Bus, durable: str) -> NatsMessage:
    """The next delivery for ``durable``, wrapped the way FastStream hands it to a subscriber."""
    subscription = await bus.js.pull_subscribe(
        subject_pattern(RepoUpdated),
        durable=durable,
        stream=STREAM_NAME,
        config=ConsumerConfig(max_deliver=HEARTBEAT.max_deliver, ack_wait=HEARTBEAT.ack_wait_seconds),
    )
    [raw] = await subscription.fetch(1, timeout=10)
    return NatsMessage(raw_message=raw, body=raw.data, headers=raw.headers or {})


async def test_a_failing_handler_is_settled_and_process_returns_normally(bus: Bus) -> None:
    bus.delivery = HEARTBEAT
    await bus.publish(repo_updated())

    async def explode(event: RepoUpdated) -> Sequence[Event]:
        raise RuntimeError("boom")

    for _ in range(HEARTBEAT.max_deliver):
        message = await pull_one(bus, "settle")
        await process_delivery(bus, message, event_type=RepoUpdated, consumer="settle", stage="test", handle=explode)
    events = await collect(bus)
    assert [type(e) for e in events if isinstance(e, EventParked | StageFailed)] == [EventParked, StageFailed]


async def test_the_heartbeat_keeps_running_while_outputs_are_published(bus: Bus) -> None:
    """An output publish that takes long (a claim-check upload) still has the delivery kept alive."""
    acks: list[bytes] = []
    heartbeat_seen = asyncio.Event()

    async def on_ack(msg: Msg) -> None:
        acks.append(msg.data)
        if msg.data == b"+WPI":
            heartbeat_seen.set()

    await bus.broker.connection.subscribe(f"$JS.ACK.{STREAM_NAME}.>", cb=on_ack)

    class SlowOutputBus(Bus):
        async def publish(self, event: Event) -> bool:
            if event.run_id == "output":
                heartbeat_seen.clear()
                # Bounded: if no heartbeat comes during the publish, the test fails here.
                await asyncio.wait_for(heartbeat_seen.wait(), timeout=20)
            return await super().publish(event)

    slow = SlowOutputBus(bus.broker, delivery=HEARTBEAT)
    await slow.publish(repo_updated())
    message = await pull_one(slow, "heartbeat")

    async def produce(event: RepoUpdated) -> Sequence[Event]:
        return [repo_updated("output")]

    await process_delivery(slow, message, event_type=RepoUpdated, consumer="heartbeat", stage="test", handle=produce)
    assert b"+WPI" in acks
    published = [e.run_id for e in await collect(slow) if isinstance(e, RepoUpdated) and e.repo == REPO]
    assert published == ["run-1", "output"]
