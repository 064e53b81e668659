"""The bus against a real nats-server: dedup, redelivery, parking, claim check."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

from sextant.bus import Bus, EmbeddedNats, build_broker
from sextant.contracts import (
    Event,
    EventParked,
    RepoRef,
    RepoUpdated,
    StageFailed,
    encode_event,
    event_id_for,
    utc_now_iso,
)

from ..support.bus import FAST, collect, start_consumer
from ..support.events import file_recency_computed

__all__ = ["FAST", "REPO", "collect", "repo_updated", "start_consumer", "wait_for"]

REPO = RepoRef.for_url("https://example.com/acme/widgets.git")


def repo_updated(run_id: str = "run-1") -> RepoUpdated:
    return RepoUpdated(event_id=event_id_for(RepoUpdated, run_id), run_id=run_id, occurred_at=utc_now_iso(), repo=REPO)


async def wait_for(predicate: Callable[[], bool], within: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + within
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "condition not reached in time"
        await asyncio.sleep(0.05)


async def test_same_event_published_twice_is_stored_once(bus: Bus) -> None:
    event = repo_updated()
    assert await bus.publish(event) is True
    assert await bus.publish(event) is False
    events = await collect(bus)
    assert events == [event]


async def test_unacked_event_is_redelivered_to_the_next_consumer(nats_url: str) -> None:
    started = asyncio.Event()

    async def hang(event: RepoUpdated) -> Sequence[Event]:
        started.set()
        await asyncio.sleep(3600)
        return []

    first = await start_consumer(nats_url, hang)
    await first.publish(repo_updated())
    await asyncio.wait_for(started.wait(), 10)
    # The consumer dies without acknowledging (a crash): its connection goes away mid-handler.
    await first.broker.connection.close()

    received: list[RepoUpdated] = []

    async def record(event: RepoUpdated) -> Sequence[Event]:
        received.append(event)
        return []

    second = await start_consumer(nats_url, record)
    await wait_for(lambda: len(received) == 1)
    assert received[0].run_id == "run-1"
    await second.close()


async def test_poison_event_stops_at_max_deliver_and_is_visible(nats_url: str) -> None:
    attempts: list[int] = []

    async def explode(event: RepoUpdated) -> Sequence[Event]:
        attempts.append(1)
        raise RuntimeError("boom")

    bus = await start_consumer(nats_url, explode)
    await bus.publish(repo_updated())
    await wait_for(lambda: len(attempts) >= FAST.max_deliver)
    await asyncio.sleep(1.5)  # no further delivery after the last one
    assert len(attempts) == FAST.max_deliver
    events = await collect(bus)
    parked = [e for e in events if isinstance(e, EventParked)]
    failed = [e for e in events if isinstance(e, StageFailed)]
    assert len(parked) == 1
    assert parked[0].deliveries == FAST.max_deliver
    assert "boom" in parked[0].reason
    assert failed[0].stage == "test"
    assert failed[0].cause_type == "repo.updated"
    await bus.close()


async def test_malformed_and_unknown_events_are_parked_not_crash_looped(nats_url: str) -> None:
    received: list[RepoUpdated] = []

    async def record(event: RepoUpdated) -> Sequence[Event]:
        received.append(event)
        return []

    bus = await start_consumer(nats_url, record)
    subject = f"sextant.repo.updated.{REPO.repo_key}"
    await bus.broker.publish(b"{not json", subject, stream="SEXTANT")
    await bus.broker.publish(b'{"type": "repo.exploded", "event_id": "x"}', subject, stream="SEXTANT")
    await bus.publish(repo_updated("run-2"))
    await wait_for(lambda: len(received) == 1)
    await asyncio.sleep(0.3)
    parked = [e for e in await collect(bus) if isinstance(e, EventParked)]
    assert len(parked) == 2
    assert all("undecodable" in p.reason for p in parked)
    assert parked[0].deliveries == 1
    await bus.close()


async def test_five_mib_payload_round_trips_through_the_claim_check(bus: Bus) -> None:
    dates = {f"src/module_{i:06d}/file_with_a_long_name.py": "2026-01-01T00:00:00Z" for i in range(100_000)}
    event = file_recency_computed(repo_updated(), dates=dates)
    assert len(encode_event(event)) > 5 * 1024 * 1024
    await bus.publish(event)
    [seq_event] = [e async for _, e, raw in bus.read() if raw.headers and "Sextant-Claim" in raw.headers]
    assert seq_event == event


async def test_restarted_server_keeps_the_stream(tmp_path: Path) -> None:
    with EmbeddedNats(tmp_path / "nats") as server:
        bus = Bus(build_broker(server.url))
        await bus.connect()
        await bus.publish(repo_updated())
        await bus.close()
    with EmbeddedNats(tmp_path / "nats") as server:
        bus = Bus(build_broker(server.url))
        await bus.connect()
        assert [type(e) for e in await collect(bus)] == [RepoUpdated]
        await bus.close()
