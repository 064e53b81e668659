"""Publishing: one event on its subject, stored once (de-duplication), large bodies by claim check."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import msgspec
import nats.errors
from faststream.nats import NatsBroker
from nats.js.errors import NoStreamResponseError
from opentelemetry.trace import SpanKind

from sextant.bus.claim_check import ClaimCheck
from sextant.bus.settings import (
    CLAIM_HEADER,
    EVENT_TYPE_HEADER,
    PUBLISH_ACK_TIMEOUT_SECONDS,
    PUBLISH_ATTEMPTS,
    PUBLISH_RETRY_PAUSE_SECONDS,
    RUN_ID_HEADER,
)
from sextant.bus.span_attributes import event_attributes
from sextant.contracts import STREAM_NAME, Event, encode_event, event_name, subject_for
from sextant.telemetry import acting_as, inject_context, tracer

_tracer = tracer(__name__)


class UnpublishableEventError(ValueError):
    """An event cannot be encoded, e.g. a string holding a lone surrogate (a non-UTF-8 file name).

    Retrying cannot help: the same input produces the same event. The delivery is parked instead.
    """


def encode_for_wire(event: Event) -> bytes:
    """The event's JSON body.

    Raises:
        UnpublishableEventError: when the event holds something JSON cannot carry.
    """
    try:
        return encode_event(event)
    except (UnicodeEncodeError, msgspec.EncodeError, TypeError, OverflowError) as error:
        raise UnpublishableEventError(f"{event_name(type(event))} cannot be encoded: {error}") from error


def message_headers(event: Event) -> dict[str, str]:
    """Headers every event carries: its id (JetStream de-duplicates on it), its type and its run."""
    return {"Nats-Msg-Id": event.event_id, EVENT_TYPE_HEADER: event_name(type(event)), RUN_ID_HEADER: event.run_id}


async def publish_event(
    broker: NatsBroker, claims: ClaimCheck, event: Event, *, service: str, claim_threshold: int
) -> bool:
    """Publish an event on its subject, once (``Nats-Msg-Id`` = event id).

    Args:
        broker: A connected broker.
        claims: Where bodies over ``claim_threshold`` go.
        event: The event.
        service: The service publishing (the span reports under its name).
        claim_threshold: Body size above which the claim check is used.

    Returns:
        False when JetStream reported the event as a duplicate of one already stored.

    Raises:
        UnpublishableEventError: when the event cannot be encoded.
    """
    name = event_name(type(event))
    with (
        acting_as(service),
        _tracer.start_as_current_span(
            f"publish {name}", kind=SpanKind.PRODUCER, attributes=event_attributes(event)
        ) as span,
    ):
        body = encode_for_wire(event)
        headers = message_headers(event)
        inject_context(headers)
        if len(body) > claim_threshold:
            headers[CLAIM_HEADER] = await claims.put(body)
            body = json.dumps({"type": name, "claim": headers[CLAIM_HEADER]}).encode()
            span.set_attribute("sextant.claim_check", True)
        span.set_attribute("messaging.message.body.size", len(body))
        ack = await publish_acknowledged(broker, body, subject_for(event), headers)
        duplicate = bool(getattr(ack, "duplicate", False))
        span.set_attribute("sextant.duplicate", duplicate)
        return not duplicate


LEADERLESS_ERRORS = (NoStreamResponseError, nats.errors.TimeoutError)
"""What a publish sees while a replicated stream elects a leader: no responder, or no ack in time."""


async def publish_acknowledged(broker: NatsBroker, body: bytes, subject: str, headers: dict[str, str]) -> Any:
    """Publish into the stream and wait for JetStream's ack, retrying a leaderless moment a few times.

    Every try carries the same ``Nats-Msg-Id``, so a try whose ack was lost but whose message was
    stored is not stored again. The ack timeout is ours, not FastStream's half-second default.

    Args:
        broker: A connected broker.
        body: The message body.
        subject: Its subject.
        headers: Its headers (with ``Nats-Msg-Id``).

    Returns:
        JetStream's PubAck.

    Raises:
        NoStreamResponseError: when the stream still has no leader after the last try.
        nats.errors.TimeoutError: when the last try still got no ack.
    """
    for attempt in range(1, PUBLISH_ATTEMPTS + 1):
        try:
            return await broker.publish(
                body, subject, headers=dict(headers), stream=STREAM_NAME, timeout=PUBLISH_ACK_TIMEOUT_SECONDS
            )
        except LEADERLESS_ERRORS:
            if attempt == PUBLISH_ATTEMPTS:
                raise
            await asyncio.sleep(PUBLISH_RETRY_PAUSE_SECONDS)
    raise AssertionError("unreachable: the last attempt returns or raises")
