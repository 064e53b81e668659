"""The NATS headers every Sextant event carries: part of the wire format, like the subject."""

from __future__ import annotations

from sextant.contracts.envelope import Event
from sextant.contracts.subjects import event_name

MSG_ID_HEADER = "Nats-Msg-Id"
"""JetStream de-duplicates on it: the event id, so a retried publish is stored once."""

EVENT_TYPE_HEADER = "Sextant-Event-Type"
"""The event name, so tools can filter without decoding bodies."""

RUN_ID_HEADER = "Sextant-Run-Id"
"""The run id, so even a body nobody can decode is accounted to its run."""


def event_headers(event: Event) -> dict[str, str]:
    """The headers of one event's message (a claim-checked body adds its own).

    Args:
        event: The event being published.

    Returns:
        Header name → value.
    """
    return {MSG_ID_HEADER: event.event_id, EVENT_TYPE_HEADER: event_name(type(event)), RUN_ID_HEADER: event.run_id}
