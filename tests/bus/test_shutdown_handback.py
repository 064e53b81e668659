"""A delivery our own shutdown interrupts spends no attempt; real failures still add up to max_deliver.

Each "start" is a fresh bus (as a new process would have) on one real nats-server; the handler follows
a script, one step per call: ``stop`` waits until the bus is closing and gives the delivery back
(``DeliveryAbandoned``), ``fail`` raises, ``ok`` answers. The test closes the bus only once the handler
is waiting, so nothing is timed: the script orders the run.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from faststream.nats import NatsRouter
from nats.js.api import ConsumerConfig

from sextant.bus import Bus, DeliveryAbandoned, DeliveryPolicy, build_broker, consume
from sextant.bus.handback import handback_filter
from sextant.contracts import (
    STREAM_NAME,
    AnyEvent,
    Event,
    EventParked,
    FileRecencyComputed,
    RepoUpdated,
    StageFailed,
    subject_pattern,
)

from ..support.bus import collect, unsettled
from ..support.events import file_recency_computed
from .test_bus_real_server import repo_updated

POLICY = DeliveryPolicy(ack_wait_seconds=30.0, heartbeat_seconds=1.0, max_deliver=3, backoff_seconds=(0.1,))
DURABLE = "scripted"
STEP_DEADLINE_SECONDS = 60.0
"""Only a safety net: a start whose delivery never comes (it was parked or spent) fails here."""


class Script:
    """A handler doing, on its n-th call, the n-th step (``ok`` once the script runs out)."""

    def __init__(self, steps: Sequence[str]) -> None:
        self.steps = list(steps)
        self.calls: list[str] = []
        self.waiting = asyncio.Event()

    def handler_on(self, bus: Bus) -> object:
        async def handle(event: RepoUpdated) -> Sequence[Event]:
            step = self.steps[len(self.calls)] if len(self.calls) < len(self.steps) else "ok"
            self.calls.append(step)
            if step == "fail":
                raise RuntimeError(f"boom on call {len(self.calls)}")
            if step == "stop":
                self.waiting.set()
                await bus.stopping.wait()
                raise DeliveryAbandoned("the test is shutting this start down")
            return [file_recency_computed(event)]

        return handle


async def start(nats_url: str, script: Script) -> Bus:
    bus = Bus(build_broker(nats_url), delivery=POLICY)
    router = NatsRouter()
    consume(router, bus, event_type=RepoUpdated, durable=DURABLE, stage="test", handle=script.handler_on(bus))  # type: ignore[arg-type]
    bus.broker.include_router(router)
    await bus.connect()
    await bus.broker.start()
    return bus


async def first_of(bus: Bus, wanted: tuple[type[Event], ...]) -> AnyEvent:
    async for _, event, _ in bus.read(follow=True):
        if isinstance(event, wanted):
            return event
    raise AssertionError("the stream ended")


async def settled(bus: Bus) -> None:
    """Wait until the durable holds nothing (the last settlement follows the events it published)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + STEP_DEADLINE_SECONDS
    while (state := await unsettled(bus, DURABLE)) != (0, 0):
        assert loop.time() < deadline, f"the durable still holds {state}"
        await asyncio.sleep(0.05)


async def run_until(nats_url: str, script: Script, wanted: tuple[type[Event], ...]) -> tuple[Bus, AnyEvent, int]:
    """Start, and close each start the handler is waiting in, until an event of ``wanted`` is stored.

    Returns:
        The last start (still open), the event, and how many starts were shut down on the way.
    """
    shutdowns = 0
    published = False
    while True:
        bus = await start(nats_url, script)
        if not published:
            await bus.publish(repo_updated("run-handback"))
            published = True
        outcome = asyncio.ensure_future(first_of(bus, wanted))
        waiting = asyncio.ensure_future(script.waiting.wait())
        done, _ = await asyncio.wait({outcome, waiting}, timeout=STEP_DEADLINE_SECONDS, return_when="FIRST_COMPLETED")
        assert done, f"start {shutdowns + 1} saw no delivery (calls so far: {script.calls})"
        if outcome in done:
            waiting.cancel()
            return bus, outcome.result(), shutdowns
        outcome.cancel()
        script.waiting.clear()
        await bus.close()
        shutdowns += 1


async def test_more_shutdowns_than_max_deliver_park_nothing_and_the_work_completes(nats_url: str) -> None:
    interrupted = POLICY.max_deliver + 2
    script = Script(["stop"] * interrupted)
    bus, outcome, shutdowns = await run_until(nats_url, script, (FileRecencyComputed, EventParked))
    try:
        assert shutdowns == interrupted
        assert isinstance(outcome, FileRecencyComputed), outcome
        assert script.calls == ["stop"] * interrupted + ["ok"]
        events = await collect(bus)
        assert not [e for e in events if isinstance(e, EventParked | StageFailed)]
        assert [e.run_id for e in events if isinstance(e, FileRecencyComputed)] == ["run-handback"]
        await settled(bus)
    finally:
        await bus.close()


async def test_a_failing_handler_still_parks_after_max_deliver_failures_across_shutdowns(nats_url: str) -> None:
    script = Script(["fail", "stop"] * POLICY.max_deliver)
    bus, outcome, shutdowns = await run_until(nats_url, script, (StageFailed,))
    try:
        assert isinstance(outcome, StageFailed)
        assert script.calls.count("fail") == POLICY.max_deliver  # every failure counted, no shutdown did
        assert shutdowns == POLICY.max_deliver - 1
        [parked] = [e for e in await collect(bus) if isinstance(e, EventParked)]
        assert parked.run_id == "run-handback"
        assert parked.consumer == DURABLE
        assert parked.deliveries == POLICY.max_deliver
        assert f"boom on call {len(script.calls)}" in parked.reason
        await settled(bus)
    finally:
        await bus.close()


async def test_a_durable_made_before_hand_backs_is_given_their_subject(nats_url: str) -> None:
    bus = Bus(build_broker(nats_url), delivery=POLICY)
    await bus.connect()
    await bus.js.add_consumer(
        STREAM_NAME, ConsumerConfig(durable_name=DURABLE, filter_subject=subject_pattern(RepoUpdated), max_deliver=3)
    )
    await bus.close()

    script = Script(["stop"])
    last, outcome, shutdowns = await run_until(nats_url, script, (FileRecencyComputed, EventParked))
    try:
        assert (shutdowns, type(outcome)) == (1, FileRecencyComputed)
        info = await last.js.consumer_info(STREAM_NAME, DURABLE)
        assert info.config.filter_subjects == [subject_pattern(RepoUpdated), handback_filter(DURABLE)]
    finally:
        await last.close()
