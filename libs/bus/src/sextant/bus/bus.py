"""The bus: publish events with de-duplication and claim check, consume them with bounded redelivery."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import TypeVar

import msgspec
from faststream.nats import NatsBroker, NatsMessage, NatsRouter
from faststream.nats.opentelemetry import NatsTelemetryMiddleware
from nats.aio.msg import Msg
from nats.errors import NotJSMessageError
from nats.js import JetStreamContext
from nats.js.api import ConsumerConfig, DeliverPolicy
from opentelemetry.trace import SpanKind

from sextant.bus.claim_check import ClaimCheck
from sextant.bus.settings import (
    CLAIM_CHECK_THRESHOLD_BYTES,
    CLAIM_HEADER,
    EVENT_TYPE_HEADER,
    DeliveryPolicy,
)
from sextant.bus.span_attributes import event_attributes
from sextant.bus.stream import ensure_stream
from sextant.contracts import (
    STREAM_NAME,
    AnyEvent,
    Event,
    EventDecodeError,
    EventParked,
    RepoRef,
    decode_event,
    encode_event,
    event_id_for,
    event_name,
    stage_failed,
    subject_for,
    utc_now_iso,
)
from sextant.telemetry import acting_as, current_tracing, inject_context, tracer
from sextant.telemetry.tracing import DEFAULT_SERVICE

logger = logging.getLogger(__name__)
_tracer = tracer(__name__)

E = TypeVar("E", bound=Event)
EventHandler = Callable[[E], Awaitable[Sequence[Event]]]

UNKNOWN_REPO = RepoRef(url="", repo_key="unknown")


class Bus:
    """Publishing and consuming Sextant events over one FastStream NATS broker.

    Args:
        broker: A connected (or about to be started) FastStream ``NatsBroker``.
        claim_threshold: Body size above which the claim check is used.
    """

    def __init__(
        self,
        broker: NatsBroker,
        *,
        claim_threshold: int = CLAIM_CHECK_THRESHOLD_BYTES,
        delivery: DeliveryPolicy | None = None,
        service: str = DEFAULT_SERVICE,
    ) -> None:
        self.broker = broker
        self.claim_threshold = claim_threshold
        self.delivery = delivery or DeliveryPolicy()
        self.service = service
        self._claims: ClaimCheck | None = None

    def for_service(self, service: str) -> Bus:
        """The same connection, acting as ``service`` (its spans report under that name)."""
        view = copy.copy(self)
        view.service = service
        return view

    def router(self) -> NatsRouter:
        """A router for this service, with FastStream's telemetry middleware on its provider."""
        tracing = current_tracing()
        if tracing is None:
            return NatsRouter()
        provider = tracing.provider(self.service)
        return NatsRouter(middlewares=(NatsTelemetryMiddleware(tracer_provider=provider),))

    @property
    def js(self) -> JetStreamContext:
        """JetStream context of the broker's connection (after connect)."""
        return self.broker.connection.jetstream()

    @property
    def claims(self) -> ClaimCheck:
        """The claim-check object store."""
        if self._claims is None:
            self._claims = ClaimCheck(self.js)
        return self._claims

    async def connect(self) -> None:
        """Connect the broker and declare the stream."""
        await self.broker.connect()
        await ensure_stream(self.js)

    async def publish(self, event: Event) -> bool:
        """Publish an event on its subject, once (``Nats-Msg-Id`` = event id).

        Returns:
            False when JetStream reported the event as a duplicate of one already stored.
        """
        name = event_name(type(event))
        with (
            acting_as(self.service),
            _tracer.start_as_current_span(
                f"publish {name}", kind=SpanKind.PRODUCER, attributes=event_attributes(event)
            ) as span,
        ):
            body = encode_event(event)
            headers = {"Nats-Msg-Id": event.event_id, EVENT_TYPE_HEADER: name}
            inject_context(headers)
            if len(body) > self.claim_threshold:
                headers[CLAIM_HEADER] = await self.claims.put(body)
                body = json.dumps({"type": name, "claim": headers[CLAIM_HEADER]}).encode()
                span.set_attribute("sextant.claim_check", True)
            span.set_attribute("messaging.message.body.size", len(body))
            ack = await self.broker.publish(body, subject_for(event), headers=headers, stream=STREAM_NAME)
            duplicate = bool(getattr(ack, "duplicate", False))
            span.set_attribute("sextant.duplicate", duplicate)
            return not duplicate

    async def decode(self, data: bytes, headers: dict[str, str] | None) -> AnyEvent:
        """Decode a message body, resolving a claim check transparently."""
        claim = (headers or {}).get(CLAIM_HEADER)
        if claim:
            data = await self.claims.get(claim)
        return decode_event(data)

    async def process(
        self,
        message: NatsMessage,
        *,
        event_type: type[E],
        consumer: str,
        stage: str,
        handle: EventHandler[E],
    ) -> None:
        """Run one delivery through a handler and settle it (ack, delayed nak, or park).

        Malformed or unexpected events are parked at once; a handler exception is retried with
        backoff until ``MAX_DELIVER``, then parked and reported as ``StageFailed``.
        """
        raw: Msg = message.raw_message
        deliveries, _ = delivery_info(raw)
        try:
            event = await self.decode(raw.data, raw.headers)
        except (EventDecodeError, ValueError) as error:
            await self._park(raw, consumer, None, f"undecodable event: {error}")
            await message.ack()
            return
        if not isinstance(event, event_type):
            await self._park(raw, consumer, event, f"{consumer} does not handle {type(event).__name__}")
            await message.ack()
            return
        # The heartbeat covers the handler and the publishing of its outputs (a claim-check upload
        # can take a while): the delivery must not time out and be redelivered while either runs.
        heartbeat = asyncio.create_task(_keep_in_progress(message, self.delivery.heartbeat_seconds))
        try:
            try:
                with (
                    acting_as(self.service),
                    _tracer.start_as_current_span(
                        f"{stage} handle {event_name(type(event))}", attributes=event_attributes(event)
                    ) as span,
                ):
                    span.set_attribute("messaging.nats.deliveries", deliveries)
                    outputs = await handle(event)
            except Exception as error:  # a handler bug or an outage: retried, then parked — never lost
                logger.warning("%s failed on %s (delivery %d): %s", stage, raw.subject, deliveries, error)
                if deliveries >= self.delivery.max_deliver:
                    await self._park(raw, consumer, event, f"{type(error).__name__}: {error}")
                    await self.publish(stage_failed(event, stage, f"{type(error).__name__}: {error}"))
                    await message.reject()
                else:
                    backoff = self.delivery.backoff_seconds
                    delay = backoff[min(deliveries, len(backoff)) - 1]
                    await message.nack(delay=delay)
                return
            for output in outputs:
                await self.publish(output)
        finally:
            heartbeat.cancel()
        await message.ack()

    async def _park(self, raw: Msg, consumer: str, event: Event | None, reason: str) -> None:
        deliveries, sequence = delivery_info(raw)
        run_id = event.run_id if event else f"parked-{sequence}"
        parked = EventParked(
            event_id=event_id_for(EventParked, run_id, consumer, sequence),
            run_id=run_id,
            occurred_at=utc_now_iso(),
            repo=event.repo if event else UNKNOWN_REPO,
            consumer=consumer,
            subject=raw.subject,
            stream_sequence=sequence,
            deliveries=deliveries,
            reason=reason,
        )
        logger.warning("parked %s from %s: %s", raw.subject, consumer, reason)
        await self.publish(parked)

    async def last_sequence(self) -> int:
        """Sequence of the newest message in the stream (0 when empty)."""
        info = await self.js.stream_info(STREAM_NAME)
        return int(info.state.last_seq)

    async def read(
        self, subject: str = "sextant.>", *, follow: bool = False, after_sequence: int | None = None
    ) -> AsyncIterator[tuple[int, AnyEvent | None, Msg]]:
        """Read the stream in order through an ephemeral ordered consumer.

        Args:
            subject: Subject filter.
            follow: Keep waiting for new events after catching up.
            after_sequence: Start after this stream sequence (e.g. ``last_sequence()`` taken before
                publishing a request, to see only what follows it); None reads from the start.

        Yields:
            (stream sequence, decoded event or None when undecodable, raw message).
        """
        if after_sequence is None:
            config = ConsumerConfig(deliver_policy=DeliverPolicy.ALL)
        else:
            config = ConsumerConfig(deliver_policy=DeliverPolicy.BY_START_SEQUENCE, opt_start_seq=after_sequence + 1)
        if not follow and await self.last_sequence() <= (after_sequence or 0):
            return
        subscription = await self.js.subscribe(subject, ordered_consumer=True, config=config, stream=STREAM_NAME)
        try:
            while True:
                try:
                    raw = await subscription.next_msg(timeout=None if follow else 1.0)
                except TimeoutError:
                    return
                try:
                    event: AnyEvent | None = await self.decode(raw.data, raw.headers)
                except (EventDecodeError, ValueError):
                    event = None
                yield raw.metadata.sequence.stream, event, raw
                if not follow and raw.metadata.num_pending == 0:
                    return
        finally:
            with contextlib.suppress(Exception):
                await subscription.unsubscribe()

    async def close(self) -> None:
        """Drain and close the broker connection."""
        await self.broker.stop()


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


async def _keep_in_progress(message: NatsMessage, interval: float) -> None:
    with contextlib.suppress(asyncio.CancelledError):
        while True:
            await asyncio.sleep(interval)
            await message.in_progress()


def durable_consumer_config(delivery: DeliveryPolicy) -> ConsumerConfig:
    """Settings every service's durable pull consumer uses: explicit ack, bounded redelivery."""
    # No server-side backoff list: it would replace ack_wait for the first delivery too, and long
    # handlers keep their delivery alive with in-progress heartbeats instead. Failures nak with a delay.
    return ConsumerConfig(max_deliver=delivery.max_deliver, ack_wait=delivery.ack_wait_seconds)


PROGRESS_PREFIX = "sextant-progress"
"""Core NATS (not JetStream) subjects for live progress: ephemeral, never part of the record."""


class Progress(msgspec.Struct, frozen=True, kw_only=True):
    """A live progress report of one stage of one run."""

    run_id: str
    stage: str
    done: int
    total: int
    unit: str = "files"
    detail: str = ""


async def report_progress(bus: Bus, progress: Progress) -> None:
    """Publish a progress report (best effort: a lost report changes nothing)."""
    with contextlib.suppress(Exception):
        await bus.broker.connection.publish(f"{PROGRESS_PREFIX}.{progress.run_id}", msgspec.json.encode(progress))


async def watch_progress(bus: Bus, run_id: str) -> AsyncIterator[Progress]:
    """Progress reports of one run, as they come."""
    subscription = await bus.broker.connection.subscribe(f"{PROGRESS_PREFIX}.{run_id}")
    try:
        async for raw in subscription.messages:
            with contextlib.suppress(msgspec.DecodeError):
                yield msgspec.json.decode(raw.data, type=Progress)
    finally:
        with contextlib.suppress(Exception):
            await subscription.unsubscribe()
