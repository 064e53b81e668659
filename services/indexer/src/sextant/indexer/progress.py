"""Progress of an index run, reported to a callback (the CLI draws its progress bar from it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

Phase = Literal["syncing", "planning", "indexing", "cleaning", "done"]


@dataclass(frozen=True)
class IndexProgress:
    """Where a run stands."""

    phase: Phase
    """What the run is doing now."""
    files_total: int = 0
    """Files this run has to (re-)index (known from "indexing" on)."""
    files_done: int = 0
    """Files processed so far (indexed, failed or skipped)."""
    chunks_done: int = 0
    """Chunks written so far."""
    files_unchanged: int = 0
    """Files skipped because their content is already indexed."""
    files_restamped: int = 0
    """Unchanged files whose stored last_modified_at was updated to this run's recency scan."""


ProgressCallback = Callable[[IndexProgress], None]
"""Called from the event loop after each step; it must return quickly."""
