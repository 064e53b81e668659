"""Talking to the cluster from a test: connect once it is ready, publish until stored, count runs on a subject.

Each wait is for a condition under a generous deadline: the cluster elects leaders and a killed node's
clients reconnect at their own pace on a loaded machine.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable

from sextant.bus import Bus, StreamSettings, build_broker
from sextant.contracts import AnyEvent, Event

DEADLINE_SECONDS = 240.0
R3 = StreamSettings(replicas=3)


async def connect_when_ready(url: str) -> Bus:
    """Connect once the cluster has a JetStream meta leader and the R3 stream exists (bounded)."""
    deadline = asyncio.get_running_loop().time() + DEADLINE_SECONDS
    while True:
        bus = Bus(build_broker(url), stream=R3)
        try:
            await bus.connect()
            await bus.js.stream_info("SEXTANT")
        except Exception:
            await bus.close()
            assert asyncio.get_running_loop().time() < deadline, "the cluster never became ready"
            await asyncio.sleep(0.5)
        else:
            return bus


async def publish_until_stored(bus: Bus, event: Event) -> None:
    """Publish until JetStream acknowledges; a retry reuses the event id, so it is stored once."""
    deadline = asyncio.get_running_loop().time() + DEADLINE_SECONDS
    while True:
        try:
            await bus.publish(event)
        except Exception:  # the node we talked to died: same id, so the retry is stored once
            assert asyncio.get_running_loop().time() < deadline, "publish never acknowledged"
            await asyncio.sleep(0.2)
        else:
            return


async def read_events(bus: Bus, subject: str) -> list[AnyEvent]:
    """Every event on ``subject``; a read that hits a dead node or a leaderless moment is retried."""
    deadline = asyncio.get_running_loop().time() + DEADLINE_SECONDS
    while True:
        try:
            return [event async for _, event, _ in bus.read(subject) if event is not None]
        except Exception:  # the node we read through died, or the cluster is electing: try again
            assert asyncio.get_running_loop().time() < deadline, f"{subject} could not be read"
            await asyncio.sleep(0.5)


async def run_ids(bus: Bus, subject: str) -> Counter[str]:
    """How many events of each run the stream holds on ``subject``."""
    return Counter(event.run_id for event in await read_events(bus, subject))


async def wait_for_runs(bus: Bus, subject: str, expected: int, explain: Callable[[], str] = lambda: "") -> Counter[str]:
    """The runs on ``subject`` once ``expected`` distinct ones are there.

    ``explain`` adds to the failure message (e.g. the services' last log lines).
    """
    runs: Counter[str] = Counter()
    deadline = asyncio.get_running_loop().time() + DEADLINE_SECONDS
    while len(runs) < expected:
        assert asyncio.get_running_loop().time() < deadline, f"{len(runs)} of {expected} on {subject}\n{explain()}"
        await asyncio.sleep(0.5)
        runs = await run_ids(bus, subject)
    return runs
