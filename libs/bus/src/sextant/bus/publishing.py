"""Publishing: one event on its subject, stored once (de-duplication), large bodies by claim check."""

from __future__ import annotations

import json

import msgspec
from faststream.nats import NatsBroker
from opentelemetry.trace import SpanKind

from sextant.bus.claim_check import ClaimCheck
from sextant.bus.settings import CLAIM_HEADER, EVENT_TYPE_HEADER, RUN_ID_HEADER
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
        ack = await broker.publish(body, subject_for(event), headers=headers, stream=STREAM_NAME)
        duplicate = bool(getattr(ack, "duplicate", False))
        span.set_attribute("sextant.duplicate", duplicate)
        return not duplicate
