"""Fold a payload-only scroll into path -> FileEntry, the input of the incremental check."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from sextant.chunkstore.points import FileEntry

FILE_INDEX_FIELDS = ("path", "blob_sha", "last_modified_at")
"""The only payload fields the scroll behind `file_index` needs to fetch."""

_Stamp = str | msgspec.UnsetType | None


class _FileFold:
    """What the points of one file seen so far agree on."""

    __slots__ = ("ids", "mixed", "shas", "stamp")

    def __init__(self, stamp: _Stamp) -> None:
        self.shas: set[str] = set()
        self.ids: set[str] = set()
        self.stamp = stamp
        self.mixed = False


def build_file_index(points: Iterable[tuple[str, Mapping[str, Any]]]) -> dict[str, FileEntry]:
    """Group scrolled points by path.

    Args:
        points: (point id, payload holding at least `path` and `blob_sha`; `last_modified_at` when stored)
            pairs.

    Returns:
        path -> FileEntry; a path whose points disagree on the blob SHA gets blob_sha "", one whose points
        disagree on `last_modified_at` gets `last_modified_mixed`.
    """
    files: dict[str, _FileFold] = {}
    for point, payload in points:
        # A missing key is the "scan skipped" state (UNSET), distinct from a stored null (age unknown).
        stamp: _Stamp = payload.get("last_modified_at", msgspec.UNSET)
        fold = files.get(payload["path"])
        if fold is None:
            fold = files[payload["path"]] = _FileFold(stamp)
        elif stamp != fold.stamp:
            fold.mixed = True
        fold.shas.add(payload["blob_sha"])
        fold.ids.add(point)
    return {
        path: FileEntry(
            blob_sha=next(iter(fold.shas)) if len(fold.shas) == 1 else "",
            point_ids=frozenset(fold.ids),
            last_modified_at=msgspec.UNSET if fold.mixed else fold.stamp,
            last_modified_mixed=fold.mixed,
        )
        for path, fold in files.items()
    }
