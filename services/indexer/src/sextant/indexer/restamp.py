"""Which unchanged files need their stored ``last_modified_at`` brought in line with this run's scan.

A file whose blob SHA is unchanged is not re-embedded, so its points keep the stamp of the run that wrote
them. The scan can still know better: recency was off back then (field absent), that scan failed (null),
or the file's last commit moved without a content change (a revert to identical content, a re-add).
Only a *computed* scan carries information about unchanged files:

- skipped (feature off): says nothing about dates, so stored stamps stay — turning the feature off for
  one run never erases dates (written chunks still leave the field out, as the feature-off rule says);
- failed: stamps changed files null (age unknown, never "now"), but for unchanged files it knows no
  more than the stored stamp, so that stays too;
- computed: the map is the authority, a path missing from it included (null: older than the window).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import msgspec

from sextant.chunkstore import FileEntry
from sextant.indexer.recency_stamp import RecencyStamp


def restamps_for_unchanged(
    paths: Iterable[str], stored: Mapping[str, FileEntry], stamp: RecencyStamp
) -> dict[str, str | None]:
    """The new ``last_modified_at`` of each unchanged file whose stored stamp differs from the scan's.

    Args:
        paths: Unchanged files of the run (already limited to an incremental run's scope).
        stored: What the store holds (``ChunkStore.file_index`` as read at planning).
        stamp: The run's recency stamp.

    Returns:
        path -> new stamp, for ``ChunkStore.set_last_modified``; empty unless the scan was computed.
    """
    if stamp.status != "computed":
        return {}
    restamps: dict[str, str | None] = {}
    for path in paths:
        entry = stored.get(path)
        if entry is None:
            continue  # an empty file never stored: nothing to stamp
        wanted = stamp.for_path(path)
        if isinstance(wanted, msgspec.UnsetType):  # unreachable for a computed scan; keeps the type exact
            continue
        if entry.last_modified_mixed or entry.last_modified_at != wanted:
            restamps[path] = wanted
    return restamps
