"""Wire a plain handler to a durable JetStream pull consumer on a FastStream router."""

from __future__ import annotations

from faststream import AckPolicy
from faststream.nats import JStream, NatsRouter, PullSub
from faststream.nats.annotations import NatsMessage

from sextant.bus.bus import Bus
from sextant.bus.delivery import E, EventHandler, durable_consumer_config, process_delivery
from sextant.bus.exhausted import park_exhausted_deliveries, raw_body
from sextant.contracts import STREAM_NAME, subject_pattern

PULL_TIMEOUT_SECONDS = 5.0


def consume(
    router: NatsRouter,
    bus: Bus,
    *,
    event_type: type[E],
    durable: str,
    stage: str,
    handle: EventHandler[E],
) -> None:
    """Subscribe ``handle`` to every ``event_type`` event through a durable consumer.

    Replicas of a service share the durable, so they split the work (a queue). Acks are explicit:
    the bus acks after the handler's output is published, naks with backoff on failure, and
    parks what it cannot handle. A message that runs out of deliveries some other way is parked
    by the delivery-limit backstop (``sextant.bus.exhausted``). The durable also reads the copies
    it hands back at shutdown (``sextant.bus.handback``).

    Args:
        router: The service's router.
        bus: Publishes the handler's output and settles deliveries.
        event_type: The event the handler takes.
        durable: Durable consumer name (one per service and event).
        stage: Stage name reported in StageFailed.
        handle: ``async (event) -> events to publish``.
    """

    subject = subject_pattern(event_type)
    bus.durables.add(durable)

    @router.subscriber(
        subject,
        stream=JStream(STREAM_NAME, declare=False),
        durable=durable,
        pull_sub=PullSub(batch_size=1, timeout=PULL_TIMEOUT_SECONDS),
        config=durable_consumer_config(bus.delivery, subject=subject, durable=durable),
        ack_policy=AckPolicy.MANUAL,
        decoder=raw_body,  # our code decodes; FastStream's JSON parser would choke on hostile nesting
        title=f"{durable}:{event_type.__name__}",
    )
    async def on_message(message: NatsMessage) -> None:
        await process_delivery(bus, message, event_type=event_type, consumer=durable, stage=stage, handle=handle)

    park_exhausted_deliveries(router, bus, consumer=durable)
