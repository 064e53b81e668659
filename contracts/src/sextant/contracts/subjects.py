"""Subjects: one per event and repository, ``sextant.<event>.<repo_key>``, in one stream."""

from __future__ import annotations

from sextant.contracts.envelope import Event

STREAM_NAME = "SEXTANT"
STREAM_SUBJECTS = ("sextant.>",)
SUBJECT_PREFIX = "sextant"


def event_name(event_type: type[Event]) -> str:
    """The event's name, e.g. ``repo.updated`` (its msgspec tag)."""
    tag = event_type.__struct_config__.tag
    if not isinstance(tag, str):
        raise TypeError(f"{event_type.__name__} has no string tag")
    return tag


def subject_for(event: Event) -> str:
    """The subject an event is published on."""
    return f"{SUBJECT_PREFIX}.{event_name(type(event))}.{event.repo.repo_key}"


def subject_pattern(event_type: type[Event], repo_key: str = "*") -> str:
    """The subject filter for one event type (every repository, or one)."""
    return f"{SUBJECT_PREFIX}.{event_name(event_type)}.{repo_key}"
