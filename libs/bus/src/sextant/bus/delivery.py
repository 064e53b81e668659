"""Delivery: run one message through a handler and settle it — acked, parked with a reason, or nacked."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from faststream.nats import NatsMessage
from nats.aio.msg import Msg
from nats.errors import NotJSMessageError
from nats.js.api import ConsumerConfig

from sextant.bus.claim_check import MissingClaimError
from sextant.bus.handback import earlier_deliveries, hand_back, handback_filter, stored_copy
from sextant.bus.parking import parked_event
from sextant.bus.publishing import UnpublishableEventError
from sextant.bus.settings import DeliveryPolicy
from sextant.bus.span_attributes import event_attributes
from sextant.contracts import Event, EventDecodeError, event_name, stage_failed
from sextant.telemetry import acting_as, tracer

if TYPE_CHECKING:
    from sextant.bus.bus import Bus

logger = logging.getLogger(__name__)
_tracer = tracer(__name__)

E = TypeVar("E", bound=Event)
EventHandler = Callable[[E], Awaitable[Sequence[Event]]]


class DeliveryAbandoned(Exception):  # noqa: N818 — a settlement, not a failure
    """Raised by a handler that stops before finishing, its work so far kept and the rest resumable.

    While the process is stopping (``Bus.stopping``) the delivery is handed back without spending an
    attempt (``sextant.bus.handback``); otherwise (a lease lost mid-work) it is nacked, which counts.
    Neither logs a warning.
    """


def delivery_info(raw: Msg) -> tuple[int, int | None]:
    """How many times this message was delivered, and its stream sequence.

    A message that did not come through a JetStream consumer (FastStream's in-memory test broker, a
    core NATS publish) counts as a first delivery with no sequence.
    """
    try:
        meta = raw.metadata
    except NotJSMessageError:
        return 1, None
    return meta.num_delivered or 1, meta.sequence.stream


def counted_deliveries(raw: Msg) -> int:
    """Which attempt at the work this delivery is: its own deliveries plus those its hand-backs carried.

    Deliveries interrupted by our own shutdown are not in it (they were handed back, not retried).
    """
    deliveries, _ = delivery_info(raw)
    return earlier_deliveries(raw.headers) + deliveries


def durable_consumer_config(delivery: DeliveryPolicy, *, subject: str, durable: str) -> ConsumerConfig:
    """Settings every service's durable pull consumer uses: explicit ack, bounded redelivery.

    It reads its event's subject and the copies it handed back at shutdown.
    """
    # No server-side backoff list: it would replace ack_wait for the first delivery too, and long
    # handlers keep their delivery alive with in-progress heartbeats instead. Failures nak with a delay.
    return ConsumerConfig(
        max_deliver=delivery.max_deliver,
        ack_wait=delivery.ack_wait_seconds,
        filter_subjects=[subject, handback_filter(durable)],
    )


async def process_delivery(
    bus: Bus,
    message: NatsMessage,
    *,
    event_type: type[E],
    consumer: str,
    stage: str,
    handle: EventHandler[E],
) -> None:
    """Run one delivery through a handler and settle it.

    What cannot ever succeed is parked at once: a body that is not an event, an event this consumer
    does not take, a claim-check object that is gone, an output that cannot be encoded. What may
    succeed later (a handler error, an outage while publishing) is nacked with backoff until the
    last delivery, then parked and reported as ``StageFailed``. Anything that escapes even this is
    caught by the delivery-limit backstop (``sextant.bus.exhausted``).

    Args:
        bus: Publishes outputs and parking records.
        message: The delivery.
        event_type: The event the handler takes.
        consumer: The durable's name (recorded in EventParked).
        stage: The stage's name (recorded in StageFailed).
        handle: ``async (event) -> events to publish``.
    """
    raw: Msg = message.raw_message
    if await _already_handed_back(bus, message, consumer=consumer):
        return
    deliveries = counted_deliveries(raw)
    event = await _event_to_handle(bus, message, event_type=event_type, consumer=consumer, deliveries=deliveries)
    if event is None:
        return
    # The heartbeat covers the handler and the publishing of its outputs (a claim-check upload
    # can take a while): the delivery must not time out and be redelivered while either runs.
    heartbeat = asyncio.create_task(_keep_in_progress(message, bus.delivery.heartbeat_seconds))
    try:
        try:
            with (
                acting_as(bus.service),
                _tracer.start_as_current_span(
                    f"{stage} handle {event_name(type(event))}", attributes=event_attributes(event)
                ) as span,
            ):
                span.set_attribute("messaging.nats.deliveries", deliveries)
                outputs = await handle(event)
            for output in outputs:
                await bus.publish(output)
        except DeliveryAbandoned as stopped:
            await _give_back(bus, message, consumer=consumer, stage=stage, why=stopped, deliveries=deliveries)
            return
        except UnpublishableEventError as error:  # the same input gives the same output: never retry
            await _fail(bus, message, consumer=consumer, stage=stage, event=event, error=error)
            return
        except Exception as error:  # a handler bug or an outage: retried, then parked — never lost
            logger.warning("%s failed on %s (delivery %d): %s", stage, raw.subject, deliveries, error)
            if deliveries >= bus.delivery.max_deliver:
                await _fail(bus, message, consumer=consumer, stage=stage, event=event, error=error)
            else:
                await message.nack(delay=_backoff(bus.delivery, deliveries))
            return
    finally:
        heartbeat.cancel()
    await message.ack()


async def _already_handed_back(bus: Bus, message: NatsMessage, *, consumer: str) -> bool:
    """Ack a delivery whose copy is already stored (the copy does the work).

    That is an original redelivered because its process died between storing the copy and acking it,
    or any message read again by a durable made anew (it reads the stream from the start, copies too).
    """
    raw: Msg = message.raw_message
    _, sequence = delivery_info(raw)
    if sequence is None:
        return False
    try:
        copy = await stored_copy(bus.js, durable=consumer, subject=raw.subject, sequence=sequence)
    except Exception as error:  # unknown: run it (the work is resumable), rather than risk dropping it
        logger.warning("%s could not look for a hand-back of %s (seq %d): %s", consumer, raw.subject, sequence, error)
        return False
    if copy is None:
        return False
    logger.info("%s: %s (seq %d) was handed back earlier as seq %d; acked", consumer, raw.subject, sequence, copy)
    await message.ack()
    return True


async def _event_to_handle(
    bus: Bus, message: NatsMessage, *, event_type: type[E], consumer: str, deliveries: int
) -> E | None:
    """The delivery's event, or None once a delivery that must not reach the handler is settled."""
    raw: Msg = message.raw_message
    try:
        event = await bus.decode(raw.data, raw.headers)
    except (EventDecodeError, MissingClaimError) as error:
        await park(bus, raw, consumer, None, f"undecodable event: {error}")
        await message.ack()
        return None
    except Exception as error:  # the claim store is unreachable: worth another delivery
        await _retry_or_park(bus, message, consumer=consumer, error=error, deliveries=deliveries)
        return None
    if not isinstance(event, event_type):
        await park(bus, raw, consumer, event, f"{consumer} does not handle {type(event).__name__}")
        await message.ack()
        return None
    if deliveries > bus.delivery.max_deliver:  # a copy whose earlier deliveries failed or crashed
        reason = f"delivery limit reached: {deliveries - 1} deliveries failed or crashed (shutdowns not counted)"
        await park(bus, raw, consumer, event, reason)
        await message.reject()
        return None
    return event


async def park(bus: Bus, raw: Msg, consumer: str, event: Event | None, reason: str) -> None:
    """Record a delivery as parked (logged, and published as EventParked)."""
    _, sequence = delivery_info(raw)
    parked = parked_event(
        consumer=consumer,
        subject=raw.subject,
        headers=raw.headers,
        sequence=sequence,
        deliveries=counted_deliveries(raw),
        event=event,
        reason=reason,
    )
    logger.warning("parked %s (seq %s) from %s: %s", raw.subject, sequence, consumer, reason)
    await bus.publish(parked)


async def _give_back(
    bus: Bus, message: NatsMessage, *, consumer: str, stage: str, why: DeliveryAbandoned, deliveries: int
) -> None:
    """Settle an abandoned delivery: handed back when we are shutting down, else nacked (which counts)."""
    raw = message.raw_message
    _, sequence = delivery_info(raw)
    if bus.stopping.is_set() and sequence is not None:
        try:
            await hand_back(bus, raw, durable=consumer, sequence=sequence, counted=deliveries - 1)
        except Exception as error:  # the copy is not stored: the original must stay, at an attempt's cost
            logger.warning("%s could not hand %s back at shutdown (%s); nacked instead", stage, raw.subject, error)
        else:
            logger.info("%s handed %s back at shutdown (%s)", stage, raw.subject, why)
            await message.ack()
            return
    else:
        logger.info("%s gave %s back (%s); it is redelivered", stage, raw.subject, why)
    await message.nack(delay=_backoff(bus.delivery, 1))


async def _fail(bus: Bus, message: NatsMessage, *, consumer: str, stage: str, event: Event, error: Exception) -> None:
    reason = f"{type(error).__name__}: {error}"
    await park(bus, message.raw_message, consumer, event, reason)
    await bus.publish(stage_failed(event, stage, reason))
    await message.reject()


async def _retry_or_park(bus: Bus, message: NatsMessage, *, consumer: str, error: Exception, deliveries: int) -> None:
    logger.warning("%s could not read %s (delivery %d): %s", consumer, message.raw_message.subject, deliveries, error)
    if deliveries >= bus.delivery.max_deliver:
        await park(bus, message.raw_message, consumer, None, f"{type(error).__name__}: {error}")
        await message.reject()
    else:
        await message.nack(delay=_backoff(bus.delivery, deliveries))


def _backoff(delivery: DeliveryPolicy, deliveries: int) -> float:
    backoff = delivery.backoff_seconds
    return backoff[min(deliveries, len(backoff)) - 1]


async def _keep_in_progress(message: NatsMessage, interval: float) -> None:
    with contextlib.suppress(asyncio.CancelledError):
        while True:
            await asyncio.sleep(interval)
            await message.in_progress()
