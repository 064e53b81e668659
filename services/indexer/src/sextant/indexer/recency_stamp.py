"""The ``last_modified_at`` every chunk of a file gets from the run's recency scan (docs/design.md §2)."""

from __future__ import annotations

import msgspec

from sextant.contracts import FileRecencyComputed, RecencyStatus

Stamp = str | None | msgspec.UnsetType
"""A date; None = age unknown; UNSET = the field stays out of the payload (scan skipped)."""


class RecencyStamp:
    """Answers "which last_modified_at does this path get" for one run.

    - scan skipped (feature off) or no scan at all: UNSET — payloads byte-identical to a run without
      the feature;
    - scan failed: None for every file (age unknown, never "now");
    - scan computed: the map's date, None for a path missing from the map.

    Args:
        recency: The run's FileRecencyComputed, or None when the caller ran without one.
    """

    def __init__(self, recency: FileRecencyComputed | None) -> None:
        self.status: RecencyStatus = recency.status if recency is not None else "skipped"
        self._dates = (recency.dates or {}) if recency is not None else {}

    def for_path(self, path: str) -> Stamp:
        """The stamp of one file.

        Args:
            path: Repository-relative path.

        Returns:
            The ISO date, None, or msgspec.UNSET.
        """
        if self.status == "skipped":
            return msgspec.UNSET
        if self.status == "failed":
            return None
        return self._dates.get(path)
