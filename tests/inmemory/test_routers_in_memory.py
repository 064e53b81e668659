"""The middle test tier: service routers on FastStream's in-memory TestNatsBroker (no server at all).

It checks the wiring — subjects, durable consumers, the bus's decode/handle/publish/ack path — fast,
while the real-server tests prove JetStream semantics (de-duplication, redelivery, parking).
"""

from __future__ import annotations

from collections.abc import Sequence

from faststream.nats import TestNatsBroker

from sextant.bootstrap import bootstrap, host
from sextant.bus import Bus, build_broker, consume
from sextant.contracts import (
    Event,
    FileRecencyComputed,
    RepoRef,
    encode_event,
    subject_for,
)
from sextant.recency_scanner import app as recency_scanner

from ..support.events import repo_updated

REPO = RepoRef.for_url("https://example.com/acme/widgets.git")


async def test_recency_router_answers_a_push_with_a_dated_map_in_memory() -> None:
    bus = Bus(build_broker("nats://in-memory.invalid:4222"))
    received: list[FileRecencyComputed] = []

    async def record(event: FileRecencyComputed) -> Sequence[Event]:
        received.append(event)
        return []

    env = {"INDEX_FILE_RECENCY": "true"}
    bus.broker.include_router(host(recency_scanner.SERVICE, bootstrap(env), env).build(bus))
    downstream = bus.router()
    consume(downstream, bus, event_type=FileRecencyComputed, durable="test_downstream", stage="test", handle=record)
    bus.broker.include_router(downstream)
    async with TestNatsBroker(bus.broker) as broker:
        request = repo_updated(REPO, changed_paths=["src/a.py"], head_commit_date="2026-03-04T05:06:07Z")
        await broker.publish(encode_event(request), subject_for(request), stream="SEXTANT")
    [event] = received
    assert event.status == "computed"
    assert event.mode == "incremental"
    assert event.dates is not None
    assert event.dates["src/a.py"].startswith("2026-03-04")
    assert event.request.event_id == request.event_id
