"""Every delivery ends acked, parked with a reason, or nacked for retry — against a real nats-server.

Each shape below used to vanish after the last redelivery with no trace.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Sequence

from faststream.nats import NatsRouter
from nats.js.api import ConsumerConfig

from sextant.bus import Bus, build_broker
from sextant.bus.exhausted import park_exhausted_deliveries
from sextant.bus.settings import CLAIM_HEADER, RUN_ID_HEADER
from sextant.contracts import (
    STREAM_NAME,
    Event,
    EventParked,
    RepoUpdated,
    StageFailed,
)

from ..support.events import file_recency_computed
from .test_bus_real_server import FAST, REPO, collect, repo_updated, start_consumer, wait_for

SUBJECT = f"sextant.repo.updated.{REPO.repo_key}"


async def parked_and_failed(bus: Bus) -> tuple[list[EventParked], list[StageFailed]]:
    events = await collect(bus)
    return [e for e in events if isinstance(e, EventParked)], [e for e in events if isinstance(e, StageFailed)]


async def test_deeply_nested_json_is_parked_under_its_run_and_the_next_event_still_handled(nats_url: str) -> None:
    received: list[str] = []

    async def record(event: RepoUpdated) -> Sequence[Event]:
        received.append(event.run_id)
        return []

    bus = await start_consumer(nats_url, record)
    nested = b"[" * 200_000 + b"]" * 200_000  # deeper than Python's json module can recurse
    await bus.broker.publish(nested, SUBJECT, headers={RUN_ID_HEADER: "run-deep"}, stream=STREAM_NAME)
    await bus.publish(repo_updated("run-2"))
    await wait_for(lambda: received == ["run-2"])
    parked: list[EventParked] = []

    async def parked_seen() -> bool:
        parked[:] = (await parked_and_failed(bus))[0]
        return bool(parked)

    await wait_for_async(parked_seen)
    assert parked[0].run_id == "run-deep"
    assert parked[0].repo.repo_key == REPO.repo_key
    assert "undecodable" in parked[0].reason
    assert parked[0].deliveries == 1
    await bus.close()


async def test_a_claim_naming_a_missing_object_is_parked_at_once(nats_url: str) -> None:
    async def record(event: RepoUpdated) -> Sequence[Event]:
        raise AssertionError("a missing claim must never reach the handler")

    bus = await start_consumer(nats_url, record)
    headers = {CLAIM_HEADER: "0" * 64, RUN_ID_HEADER: "run-claim"}
    body = json.dumps({"type": "repo.updated", "claim": "0" * 64}).encode()
    await bus.broker.publish(body, SUBJECT, headers=headers, stream=STREAM_NAME)

    async def parked_seen() -> bool:
        return bool((await parked_and_failed(bus))[0])

    await wait_for_async(parked_seen)
    [parked], failed = await parked_and_failed(bus)
    assert parked.run_id == "run-claim"
    assert "missing" in parked.reason
    assert parked.deliveries == 1
    assert failed == []
    await bus.close()


async def test_an_output_that_cannot_be_encoded_parks_the_input_and_fails_the_stage(nats_url: str) -> None:
    attempts: list[int] = []

    async def scan(event: RepoUpdated) -> Sequence[Event]:
        attempts.append(1)
        # A non-UTF-8 file name decoded with surrogateescape: JSON cannot carry it.
        dates = {b"caf\xe9.py".decode("utf-8", "surrogateescape"): "2026-01-01T00:00:00Z"}
        return [file_recency_computed(event, dates=dates)]

    bus = await start_consumer(nats_url, scan)
    await bus.publish(repo_updated("run-bad-path"))

    async def failed_seen() -> bool:
        return bool((await parked_and_failed(bus))[1])

    await wait_for_async(failed_seen)
    [parked], [failed] = await parked_and_failed(bus)
    assert attempts == [1], "retrying cannot help: the same input gives the same output"
    assert parked.run_id == failed.run_id == "run-bad-path"
    assert "cannot be encoded" in parked.reason
    assert failed.stage == "test"
    await bus.close()


async def test_a_delivery_that_runs_out_unsettled_is_parked_by_the_backstop(nats_url: str) -> None:
    """A consumer that never settles (a crash on every delivery) still ends in EventParked."""
    backstop = Bus(build_broker(nats_url), delivery=FAST)
    router = NatsRouter()
    park_exhausted_deliveries(router, backstop, consumer="crashy")
    backstop.broker.include_router(router)
    await backstop.connect()
    await backstop.broker.start()

    crashy = Bus(build_broker(nats_url))
    await crashy.connect()
    await crashy.publish(repo_updated("run-crash"))
    subscription = await crashy.js.pull_subscribe(
        SUBJECT, durable="crashy", stream=STREAM_NAME, config=ConsumerConfig(max_deliver=2, ack_wait=0.5)
    )
    for _ in range(2):  # take each delivery and drop it, as a process killed mid-handler would
        await subscription.fetch(1, timeout=10)
    # The server notices the spent delivery when the consumer asks for more (a live service always does).
    with contextlib.suppress(TimeoutError):
        await subscription.fetch(1, timeout=2)

    async def parked_seen() -> bool:
        return bool((await parked_and_failed(backstop))[0])

    await wait_for_async(parked_seen)
    [parked], _ = await parked_and_failed(backstop)
    assert parked.run_id == "run-crash"
    assert parked.consumer == "crashy"
    assert parked.deliveries == 2
    assert "delivery limit" in parked.reason
    await subscription.unsubscribe()
    await crashy.close()
    await backstop.close()


async def test_reading_the_stream_survives_a_dangling_claim(bus: Bus) -> None:
    headers = {CLAIM_HEADER: "f" * 64}
    await bus.broker.publish(b'{"claim": "gone"}', SUBJECT, headers=headers, stream=STREAM_NAME)
    await bus.publish(repo_updated("after"))
    events = await collect(bus)
    assert events[0] is None
    assert isinstance(events[1], RepoUpdated)
    assert events[1].run_id == "after"


async def wait_for_async(predicate: object, within: float = 20.0) -> None:
    """Poll an async predicate until it holds (bounded; a missing event fails the test)."""
    assert callable(predicate)
    deadline = asyncio.get_running_loop().time() + within
    while not await predicate():
        assert asyncio.get_running_loop().time() < deadline, "condition not reached in time"
        await asyncio.sleep(0.1)
