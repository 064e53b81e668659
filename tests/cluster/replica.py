"""One replica of a stage, as its own process: ``python replica.py NATS_URLS``.

It joins the shared durable consumer on the R3 stream and turns each ``RepoUpdated`` into one
``FileRecencyComputed`` whose id is derived from the request's run, so a redelivery (after this
process or another replica is killed) yields the same id and JetStream stores it once.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence

from faststream.nats import NatsRouter

from sextant.bus import Bus, DeliveryPolicy, StreamSettings, build_broker, consume
from sextant.contracts import Event, FileRecencyComputed, RepoUpdated, event_id_for, utc_now_iso

DURABLE = "recency_scanner"
R3 = StreamSettings(replicas=3)
DELIVERY = DeliveryPolicy(ack_wait_seconds=10.0, heartbeat_seconds=2.0, max_deliver=20, backoff_seconds=(0.5,))


async def scan(event: RepoUpdated) -> Sequence[Event]:
    """The stage's effect: one result per request, with an id fixed by the request's run."""
    return [
        FileRecencyComputed(
            event_id=event_id_for(FileRecencyComputed, event.run_id),
            run_id=event.run_id,
            occurred_at=utc_now_iso(),
            repo=event.repo,
            request=event,
            status="computed",
            dates={},
        )
    ]


async def main(url: str) -> None:
    """Consume until killed."""
    bus = Bus(build_broker(url), stream=R3, delivery=DELIVERY)
    router = NatsRouter()
    consume(router, bus, event_type=RepoUpdated, durable=DURABLE, stage="recency", handle=scan)
    bus.broker.include_router(router)
    await bus.connect()
    await bus.broker.start()
    print("ready", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
