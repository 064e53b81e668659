"""Commit dates as one canonical string: ISO 8601 in UTC, so plain string order is time order."""

from __future__ import annotations

from datetime import UTC, datetime


def iso_from_epoch(seconds: int) -> str:
    """Format a commit timestamp (git's ``%ct``) as ISO 8601 in UTC.

    Args:
        seconds: Seconds since the Unix epoch.

    Returns:
        e.g. ``2026-01-01T12:00:00+00:00``.
    """
    return datetime.fromtimestamp(seconds, UTC).isoformat()


def normalize_iso(value: str) -> str:
    """Re-express an ISO 8601 date-time (a webhook's head-commit timestamp) in UTC.

    Args:
        value: e.g. ``2026-01-01T14:00:00+02:00`` or ``...Z``; without an offset it is read as UTC.

    Returns:
        The same instant as ``YYYY-MM-DDTHH:MM:SS+00:00``.
    """
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError as error:
        raise ValueError(f"not an ISO 8601 date-time: {value!r}") from error
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC).isoformat()
