"""Re-stamping `last_modified_at` in place: how a path -> stamp map becomes payload-only engine writes.

Qdrant's set-payload merges the given keys into each payload and treats a null value as "remove this
key" (checked on qdrant-edge 0.9 and qdrant-client's local mode, which mirrors the server), so it cannot
store the explicit null that means "age unknown". Dates go through set-payload by filter, grouped by
date; unknown ages need a per-point overwrite of the whole payload with the field set to null.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LAST_MODIFIED_FIELD = "last_modified_at"
"""The payload key that carries a file's last commit date."""


def group_by_stamp(stamps: Mapping[str, str | None]) -> tuple[dict[str, list[str]], list[str]]:
    """Split a path -> stamp map into one path list per date and the paths whose age becomes unknown.

    Args:
        stamps: File path -> new `last_modified_at` (an ISO date, or None for age unknown).

    Returns:
        (date -> sorted paths, sorted paths to set to null).
    """
    dated: dict[str, list[str]] = {}
    unknown: list[str] = []
    for path, stamp in sorted(stamps.items()):
        if stamp is None:
            unknown.append(path)
        else:
            dated.setdefault(stamp, []).append(path)
    return dated, unknown


def with_unknown_age(payload: Mapping[str, Any]) -> dict[str, Any]:
    """A stored payload with `last_modified_at` set to null and every other field kept.

    Args:
        payload: The point's whole stored payload.

    Returns:
        A new dict for an overwrite.
    """
    return {**payload, LAST_MODIFIED_FIELD: None}
