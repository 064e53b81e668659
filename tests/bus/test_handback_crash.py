"""A crash between storing a handed-back copy and acking the original does not run the work twice.

The copy is stored first and the original acked after; a process killed between the two leaves both:
the copy waiting, the original redelivered once its ack wait runs out. The redelivered original must
find its copy and be acked without running the handler, whenever it comes back (the duplicate window
only protects a second hand-back that comes back soon).

The crash is reproduced step by step: a raw pull subscription on the durable takes the delivery, the
bus's own hand-back publishes the copy, and the connection closes without acking.
"""

from __future__ import annotations

from faststream.nats import NatsRouter
from nats.js.api import ConsumerConfig

from sextant.bus import Bus, DeliveryPolicy, build_broker, consume
from sextant.bus.delivery import durable_consumer_config
from sextant.bus.handback import hand_back
from sextant.contracts import STREAM_NAME, EventParked, FileRecencyComputed, RepoUpdated, StageFailed, subject_pattern

from ..support.bus import collect
from .test_bus_real_server import repo_updated
from .test_shutdown_handback import DURABLE, Script, settled, start

CRASH_POLICY = DeliveryPolicy(ack_wait_seconds=2.0, heartbeat_seconds=0.5, max_deliver=3, backoff_seconds=(0.1,))
"""A short ack wait only so the original comes back soon; nothing below depends on how soon."""


async def crash_after_handing_back(nats_url: str) -> int:
    """Take the one delivery, store its copy as a shutdown would, then die before acking. Its sequence."""
    bus = Bus(build_broker(nats_url), delivery=CRASH_POLICY)
    await bus.connect()
    subject = subject_pattern(RepoUpdated)
    config = durable_consumer_config(CRASH_POLICY, subject=subject, durable=DURABLE)
    await bus.js.add_consumer(STREAM_NAME, ConsumerConfig(durable_name=DURABLE, **_settings(config)))
    await bus.publish(repo_updated("run-crash"))
    subscription = await bus.js.pull_subscribe_bind(DURABLE, STREAM_NAME)
    [raw] = await subscription.fetch(1)
    sequence = raw.metadata.sequence.stream
    await hand_back(bus, raw, durable=DURABLE, sequence=sequence, counted=0)
    await bus.broker.connection.close()  # the crash: the original is never acked
    return sequence


def _settings(config: ConsumerConfig) -> dict[str, object]:
    return {
        "max_deliver": config.max_deliver,
        "ack_wait": config.ack_wait,
        "filter_subjects": config.filter_subjects,
    }


async def test_the_original_of_a_stored_copy_is_acked_without_running_the_work_again(nats_url: str) -> None:
    await crash_after_handing_back(nats_url)

    script = Script([])
    bus = Bus(build_broker(nats_url), delivery=CRASH_POLICY)
    router = NatsRouter()
    consume(router, bus, event_type=RepoUpdated, durable=DURABLE, stage="test", handle=script.handler_on(bus))  # type: ignore[arg-type]
    bus.broker.include_router(router)
    await bus.connect()
    await bus.broker.start()
    try:
        await settled(bus)  # the copy handled, and the original redelivered and settled too
        assert script.calls == ["ok"]
        events = await collect(bus)
        assert not [e for e in events if isinstance(e, EventParked | StageFailed)]
        assert [e.run_id for e in events if isinstance(e, FileRecencyComputed)] == ["run-crash"]
    finally:
        await bus.close()


async def test_a_durable_made_anew_reading_the_stream_from_the_start_runs_handed_back_work_once(nats_url: str) -> None:
    first = Script(["stop"])
    bus = await start(nats_url, first)
    await bus.publish(repo_updated("run-replay"))
    await first.waiting.wait()
    await bus.close()  # handed back: the original acked, its copy stored

    admin = Bus(build_broker(nats_url))
    await admin.connect()
    await admin.js.delete_consumer(STREAM_NAME, DURABLE)  # the durable is made again: it reads from the start
    await admin.close()

    replay = Script([])
    bus = await start(nats_url, replay)
    try:
        await settled(bus)
        assert replay.calls == ["ok"]  # the original and its copy are one piece of work
        events = await collect(bus)
        assert not [e for e in events if isinstance(e, EventParked | StageFailed)]
        assert [e.run_id for e in events if isinstance(e, FileRecencyComputed)] == ["run-replay"]
    finally:
        await bus.close()
