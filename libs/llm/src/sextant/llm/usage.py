"""Token counts read defensively from a provider's usage object."""

from __future__ import annotations

from typing import Any


def token_count(usage: Any, key: str) -> int:
    """Read one non-negative integer count from a usage mapping.

    Args:
        usage: The provider's `usage` object (any JSON value; servers differ in what they send).
        key: The field to read.

    Returns:
        The count, or 0 when the field is missing or not a non-negative integer.
    """
    value = usage.get(key) if isinstance(usage, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0
