"""`sextant events` tells a handed-back copy from a new event (a copy is the same work queued again)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from nats.js.api import ConsumerConfig

from sextant.bus import Bus, DeliveryPolicy, EmbeddedNats, build_broker
from sextant.bus.delivery import durable_consumer_config
from sextant.bus.handback import hand_back
from sextant.contracts import STREAM_NAME, RepoUpdated, subject_pattern

from ..bus.test_bus_real_server import repo_updated
from .conftest import SextantRunner

DURABLE = "dense-embedder"


async def hand_back_one(url: str) -> int:
    """Publish a RepoUpdated and hand its delivery back as a shutdown does. The original's sequence."""
    bus = Bus(build_broker(url))
    await bus.connect()
    try:
        config = durable_consumer_config(DeliveryPolicy(), subject=subject_pattern(RepoUpdated), durable=DURABLE)
        await bus.js.add_consumer(
            STREAM_NAME, ConsumerConfig(durable_name=DURABLE, filter_subjects=config.filter_subjects)
        )
        await bus.publish(repo_updated("run-events"))
        subscription = await bus.js.pull_subscribe_bind(DURABLE, STREAM_NAME)
        [raw] = await subscription.fetch(1)
        sequence = raw.metadata.sequence.stream
        await hand_back(bus, raw, durable=DURABLE, sequence=sequence, counted=0)
        await raw.ack()
        return sequence
    finally:
        await bus.close()


def test_events_marks_a_handed_back_copy(sextant: SextantRunner, tmp_path: Path) -> None:
    with EmbeddedNats(tmp_path / "nats") as server:
        original = asyncio.run(hand_back_one(server.url))
        lines = sextant("events", NATS_URL=server.url).stdout.splitlines()
    [first, copy] = [line for line in lines if "repo.updated" in line]
    assert "handed back" not in first
    assert f"handed back by {DURABLE} at shutdown: a copy of #{original}" in copy
