"""The delivery-limit backstop: a message that used up its deliveries unsettled is parked all the same.

The delivery loop settles everything it sees, but a delivery can still run out with no one settling
it: a process killed mid-handler on its last delivery, a parser failing before our code runs, a
publish that hangs past the ack wait. JetStream then stops redelivering and announces it on the
consumer's max-deliveries advisory subject. Each service listens there for its own durable (one
replica per durable, through a queue group) and publishes the EventParked the loop would have; its id
is the one the loop uses, so when both happen JetStream keeps one.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import msgspec
from faststream.nats import NatsMessage, NatsRouter
from nats.js.errors import NotFoundError

from sextant.bus.handback import earlier_deliveries
from sextant.bus.parking import parked_event
from sextant.contracts import STREAM_NAME, Event

if TYPE_CHECKING:
    from sextant.bus.bus import Bus

logger = logging.getLogger(__name__)

MAX_DELIVERIES_ADVISORY_PREFIX = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES"


class MaxDeliveriesAdvisory(msgspec.Struct, kw_only=True):
    """The part of JetStream's ``io.nats.jetstream.advisory.v1.max_deliver`` advisory we use."""

    stream: str
    consumer: str
    stream_seq: int
    deliveries: int


def max_deliveries_subject(consumer: str, stream: str = STREAM_NAME) -> str:
    """Where JetStream announces that ``consumer`` gave up on a message of ``stream``."""
    return f"{MAX_DELIVERIES_ADVISORY_PREFIX}.{stream}.{consumer}"


def raw_body(message: NatsMessage) -> bytes:
    """A FastStream decoder that leaves the body alone (its JSON parser must never see our messages)."""
    body = message.body
    return body if isinstance(body, bytes) else bytes(body)


def park_exhausted_deliveries(router: NatsRouter, bus: Bus, *, consumer: str) -> None:
    """Subscribe ``router`` to ``consumer``'s max-deliveries advisories and park each message named.

    Args:
        router: The service's router.
        bus: Reads the message and publishes the EventParked.
        consumer: The durable whose advisories to follow.
    """

    @router.subscriber(
        max_deliveries_subject(consumer),
        queue=f"{consumer}-exhausted",
        decoder=raw_body,
        title=f"{consumer}:max-deliveries",
        include_in_schema=False,
    )
    async def on_advisory(message: NatsMessage) -> None:
        try:
            advisory = msgspec.json.decode(raw_body(message), type=MaxDeliveriesAdvisory)
        except msgspec.DecodeError as error:
            logger.warning("unreadable max-deliveries advisory for %s: %s", consumer, error)
            return
        await park_exhausted(bus, advisory)


async def park_exhausted(bus: Bus, advisory: MaxDeliveriesAdvisory) -> None:
    """Publish the EventParked for the message an advisory names (read back from the stream)."""
    reason = (
        f"delivery limit reached ({advisory.deliveries} deliveries) without being settled: the consumer "
        "failed outside its handler, crashed or timed out (see the service's log)"
    )
    try:
        stored = await bus.js.get_msg(advisory.stream, advisory.stream_seq)
    except NotFoundError:
        logger.warning("%s gave up on seq %d, which is no longer stored", advisory.consumer, advisory.stream_seq)
        return
    headers = stored.headers or {}
    event: Event | None = None
    with contextlib.suppress(Exception):  # best effort: the point is to record it, decodable or not
        event = await bus.decode(stored.data or b"", headers)
    parked = parked_event(
        consumer=advisory.consumer,
        subject=stored.subject or "",
        headers=headers,
        sequence=advisory.stream_seq,
        deliveries=earlier_deliveries(headers) + advisory.deliveries,
        event=event,
        reason=reason,
    )
    logger.warning("parked %s (seq %d) from %s: %s", parked.subject, advisory.stream_seq, advisory.consumer, reason)
    await bus.publish(parked)
