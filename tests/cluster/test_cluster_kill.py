"""Scale-out on a real 3-node NATS cluster (R3 stream): kill -9 one node and one consumer replica mid-run.

Two replica processes share one durable consumer. Every request is published until JetStream
acknowledges it (a retry reuses the event id, so it is stored once). After the kills the run
completes: every request has exactly one result in the stream, none lost, none stored twice.
Every wait waits for a condition under a generous deadline; nothing asserts on speed.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from sextant.bus import Bus, EmbeddedNats, StreamSettings, build_broker
from sextant.contracts import Event, RepoRef, RepoUpdated, event_id_for, utc_now_iso

pytestmark = [pytest.mark.cluster, pytest.mark.timeout(600)]

REQUESTS = 120
KILL_AFTER = 40
DEADLINE_SECONDS = 240.0
R3 = StreamSettings(replicas=3)
REPO = RepoRef.for_url("https://example.com/acme/widgets.git")
REPLICA = Path(__file__).with_name("replica.py")


def repo_updated(run_id: str) -> RepoUpdated:
    return RepoUpdated(event_id=event_id_for(RepoUpdated, run_id), run_id=run_id, occurred_at=utc_now_iso(), repo=REPO)


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
    deadline = asyncio.get_running_loop().time() + DEADLINE_SECONDS
    while True:
        try:
            await bus.publish(event)
        except Exception:  # the node we talked to died: same id, so the retry is stored once
            assert asyncio.get_running_loop().time() < deadline, "publish never acknowledged"
            await asyncio.sleep(0.2)
        else:
            return


async def run_ids(bus: Bus, subject: str) -> Counter[str]:
    return Counter([event.run_id async for _, event, _ in bus.read(subject) if event is not None])


def start_replica(url: str) -> subprocess.Popen[str]:
    process = subprocess.Popen([sys.executable, str(REPLICA), url], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready", "the replica did not start"
    return process


async def test_killing_one_node_and_one_replica_mid_run_loses_and_duplicates_nothing(
    cluster: list[EmbeddedNats],
) -> None:
    url = ",".join(node.url for node in cluster)
    client = await connect_when_ready(url)
    assert (await client.js.stream_info("SEXTANT")).config.num_replicas == 3
    replicas = [start_replica(url), start_replica(url)]
    try:
        for index in range(REQUESTS):
            if index == KILL_AFTER:
                victim = cluster[1].pid
                assert victim is not None
                os.kill(victim, signal.SIGKILL)
                replicas[0].send_signal(signal.SIGKILL)
                replicas[0].wait()
            await publish_until_stored(client, repo_updated(f"run-{index:03d}"))

        results: Counter[str] = Counter()
        deadline = asyncio.get_running_loop().time() + DEADLINE_SECONDS
        while len(results) < REQUESTS:
            assert asyncio.get_running_loop().time() < deadline, f"only {len(results)} of {REQUESTS} results"
            await asyncio.sleep(0.5)
            try:
                results = await run_ids(client, "sextant.recency.computed.>")
            except Exception:  # a read may hit the dead node: try again
                results = Counter()
        requests = await run_ids(client, "sextant.repo.updated.>")
    finally:
        for replica in replicas:
            if replica.poll() is None:
                replica.kill()
                replica.wait()
        await client.close()
    expected = [f"run-{i:03d}" for i in range(REQUESTS)]
    assert sorted(requests) == sorted(results) == expected
    assert set(requests.values()) == {1}, "a retried publish was stored twice"
    assert set(results.values()) == {1}, "a redelivered request produced a second result"
