"""Publish one event to the SEXTANT stream with its de-duplication id, as the services expect it."""

from __future__ import annotations

import msgspec
from nats.js import JetStreamContext

from sextant.contracts import STREAM_NAME, Event, RepoUpdated, encode_event, event_headers, subject_for

LARGEST_BODY_BYTES = 256 * 1024
"""Above this a RepoUpdated is sent as a full run: the services' claim check is not worth carrying
into a CI tool, and a full run is always a correct answer to any push (NATS refuses 1 MiB anyway)."""


def fitting_request(event: RepoUpdated) -> tuple[RepoUpdated, bool]:
    """The event itself, or the same request as a full run when its path lists make it too big.

    Args:
        event: The request.

    Returns:
        (the event to send, whether it was turned into a full run).
    """
    if len(encode_event(event)) <= LARGEST_BODY_BYTES:
        return event, False
    return msgspec.structs.replace(event, changed_paths=None, removed_paths=None), True


def traceparent_headers(traceparent: str | None) -> dict[str, str]:
    """A W3C ``traceparent`` header continuing the CI job's trace, when it has one.

    Args:
        traceparent: The TRACEPARENT variable's value.

    Returns:
        The header, or nothing.
    """
    value = (traceparent or "").strip()
    return {"traceparent": value} if value else {}


async def publish_once(js: JetStreamContext, event: Event, *, traceparent: str | None = None) -> bool:
    """Publish ``event`` on its subject; JetStream drops a second copy with the same id.

    Args:
        js: A JetStream context (``nats.connect(...).jetstream()``).
        event: The event.
        traceparent: A W3C trace parent to continue.

    Returns:
        False when the stream already held this event (a retried publish).
    """
    headers = {**event_headers(event), **traceparent_headers(traceparent)}
    ack = await js.publish(subject_for(event), encode_event(event), stream=STREAM_NAME, headers=headers)
    return not bool(ack.duplicate)
