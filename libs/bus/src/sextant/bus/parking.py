"""Parking: the EventParked that records a delivery nobody will finish, built the same way from every path."""

from __future__ import annotations

from collections.abc import Mapping

from sextant.bus.handback import original_subject
from sextant.bus.settings import RUN_ID_HEADER
from sextant.contracts import Event, EventParked, RepoRef, event_id_for, utc_now_iso

UNKNOWN_REPO_KEY = "unknown"


def repo_of(subject: str, event: Event | None) -> RepoRef:
    """The repository a message is about: its event's, else the last token of its subject."""
    if event is not None:
        return event.repo
    tokens = original_subject(subject).split(".")
    return RepoRef(url="", repo_key=tokens[-1] if len(tokens) == 4 else UNKNOWN_REPO_KEY)


def parked_event(
    *,
    consumer: str,
    subject: str,
    headers: Mapping[str, str] | None,
    sequence: int | None,
    deliveries: int,
    event: Event | None,
    reason: str,
) -> EventParked:
    """The EventParked for one stored message and one consumer.

    Its id depends only on the run, the consumer and the stream sequence, so the delivery loop and
    the delivery-limit backstop produce the same event and JetStream keeps one of them.

    Args:
        consumer: The durable that gave up on the message.
        subject: The message's subject.
        headers: The message's headers (the run id header names the run of a body nobody can decode).
        sequence: Stream sequence, when known.
        deliveries: How many times it was delivered.
        event: The decoded event, when it could be decoded.
        reason: Why it was parked, safe to show.

    Returns:
        The event to publish.
    """
    header_run = (headers or {}).get(RUN_ID_HEADER)
    run_id = event.run_id if event is not None else header_run or f"parked-{sequence}"
    return EventParked(
        event_id=event_id_for(EventParked, run_id, consumer, sequence),
        run_id=run_id,
        occurred_at=utc_now_iso(),
        repo=repo_of(subject, event),
        consumer=consumer,
        subject=subject,
        stream_sequence=sequence,
        deliveries=deliveries,
        reason=reason,
    )
