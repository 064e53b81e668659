"""What earlier attempts of the same run already wrote, so a retried delivery reports the whole run.

A delivery that fails half-way (a crash, a rejected batch) is delivered again with the same run id.
The files the first attempt finished now look unchanged to the plan, so the retry alone would report
"0 added". Every point records the run that wrote it and whether the file was new then; the retry
counts those files and points as this run's work. Deletions done by an earlier attempt leave nothing
behind to count and are not recovered (see docs/indexing.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from sextant.chunkstore import FileEntry


@dataclass(frozen=True)
class EarlierAttempts:
    """Work of earlier attempts of a run, found in the store."""

    files_added: int = 0
    files_changed: int = 0
    points: int = 0


def written_by_earlier_attempts(
    unchanged_paths: Iterable[str], stored: Mapping[str, FileEntry], run_id: str
) -> EarlierAttempts:
    """Count the unchanged files whose every point was written by this run.

    Args:
        unchanged_paths: Files the plan found unchanged.
        stored: The store's file index read at planning.
        run_id: The run being (re-)attempted.

    Returns:
        Files added, files changed and points written by earlier attempts of the run.
    """
    added = changed = points = 0
    for path in unchanged_paths:
        entry = stored.get(path)
        if entry is None or not run_id or entry.run_id != run_id:
            continue
        if entry.added_by_run:
            added += 1
        else:
            changed += 1
        points += len(entry.point_ids)
    return EarlierAttempts(files_added=added, files_changed=changed, points=points)
