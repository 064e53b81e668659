"""Which calendar day a date names, and which date a chunk payload carries: one rule for every output.

A commit happened on the day its committer's clock showed: that is the day ``git log`` prints, and
the day a reader will look for. A date-time is therefore read in the offset it was written with —
``2026-05-28T23:30:00-05:00`` is the 28th, although it is already the 29th in UTC — and never
shifted to UTC or cut out of the string by position. A value carries the committer's offset when its
producer kept it (git's ``%cI``); a value written in UTC names the UTC day. Comparisons of age
(staleness, medians) use the instant instead, see ``sextant.doc_rules.staleness``.

"A payload's date" is the date of the chunk's own lines: the symbol's last change when the index
knows it (symbol chunks), the file's last commit otherwise. Missing, null, unset or malformed
values mean "age unknown" everywhere.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol


class DatedPayload(Protocol):
    """Anything with a chunk's file date (the store's payload, a selected chunk, a context item)."""

    @property
    def last_modified_at(self) -> object:
        """The file's last commit date: an ISO 8601 string, None (unknown) or unset."""
        ...


def calendar_day(value: object) -> str | None:
    """The calendar day an ISO 8601 date or date-time names, in the offset it was written with.

    Args:
        value: "2026-05-28", "2026-05-28T23:30:00-05:00", "...Z", or anything else.

    Returns:
        "2026-05-28"; None when the value is not a non-empty ISO 8601 string (age unknown).
    """
    if not isinstance(value, str) or not value.strip():
        return None
    try:
        return datetime.fromisoformat(value.strip()).date().isoformat()
    except ValueError:
        return None


def known_date(value: object) -> str | None:
    """The value itself when it is a readable ISO 8601 date, else None (unknown, unset or malformed).

    Args:
        value: A stored date field.

    Returns:
        The date string unchanged, or None.
    """
    return value if isinstance(value, str) and calendar_day(value) is not None else None


def file_date(payload: DatedPayload) -> str | None:
    """The date of the chunk's file: its last commit, or None when unknown.

    Args:
        payload: A chunk payload or anything carrying ``last_modified_at``.

    Returns:
        The ISO 8601 date as stored, or None.
    """
    return known_date(payload.last_modified_at)


def payload_date(payload: DatedPayload) -> str | None:
    """The date of the chunk's own lines: the symbol's last change when known, else its file's.

    Args:
        payload: A chunk payload or anything carrying ``last_modified_at`` (and, for symbol chunks
            indexed with symbol-level recency, ``symbol_last_modified_at``).

    Returns:
        The ISO 8601 date as stored, or None when neither is known.
    """
    return known_date(getattr(payload, "symbol_last_modified_at", None)) or file_date(payload)
