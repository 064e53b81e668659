"""How old a chunk is, said the way a person reads it: "3 months ago", "age unknown"."""

from __future__ import annotations

from datetime import UTC, datetime

from sextant.doc_rules import parse_iso_date

AGE_UNKNOWN = "age unknown"
"""What a hit without a readable date says: never guess "now" for it."""
_DAYS_PER_MONTH = 30.44
_DAYS_PER_YEAR = 365.25


def age_words(date: str | None, now: datetime | None = None) -> str:
    """A relative age for an ISO 8601 date.

    Args:
        date: The chunk's date (its symbol's or its file's last commit), or None.
        now: The reference time (the current UTC time by default).

    Returns:
        "today", "5 days ago", "3 months ago", "2 years ago", or "age unknown".
    """
    moment = parse_iso_date(date)
    if moment is None:
        return AGE_UNKNOWN
    reference = now or datetime.now(UTC)
    days = (reference - moment).total_seconds() / 86_400
    if days < 1:
        return "today"
    if days < 45:
        return _plural(int(days), "day")
    if days < _DAYS_PER_YEAR * 2:
        return _plural(round(days / _DAYS_PER_MONTH), "month")
    return _plural(int(days / _DAYS_PER_YEAR), "year")


def _plural(count: int, unit: str) -> str:
    return f"{count} {unit}{'' if count == 1 else 's'} ago"
