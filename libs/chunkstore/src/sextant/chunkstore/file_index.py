"""Fold a payload-only scroll into path -> FileEntry, the input of the incremental check."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from sextant.chunkstore.points import FileEntry

FILE_VERSION_FIELDS = ("blob_sha", "file_chunk_count", "run_id", "file_added")
"""What every point of one file version carries alike, read together by the file index (and stored
together: see `sextant.chunkstore.schema.FILE_VERSION_FIELD`)."""
FILE_INDEX_FIELDS = ("path", *FILE_VERSION_FIELDS, "last_modified_at")
"""The only payload fields the file index needs."""

INCOMPLETE = ""
"""The blob SHA a file gets when its stored points are not one whole version: never equal to the tree's."""

_Stamp = str | msgspec.UnsetType | None


class _FileFold:
    """What the points of one file seen so far agree on."""

    __slots__ = ("added", "counts", "ids", "mixed", "runs", "shas", "stamp")

    def __init__(self, stamp: _Stamp) -> None:
        self.shas: set[str] = set()
        self.ids: set[str] = set()
        self.counts: set[int] = set()
        self.runs: set[str] = set()
        self.added = True
        self.stamp = stamp
        self.mixed = False

    def complete_sha(self) -> str:
        """The file's blob SHA if its points are exactly one whole version, else INCOMPLETE."""
        if len(self.shas) != 1:
            return INCOMPLETE
        if len(self.counts) > 1:
            return INCOMPLETE
        expected = next(iter(self.counts), 0)
        if expected and expected != len(self.ids):  # 0: written before the count existed
            return INCOMPLETE
        return next(iter(self.shas))


def build_file_index(points: Iterable[tuple[str, Mapping[str, Any]]]) -> dict[str, FileEntry]:
    """Group scrolled points by path.

    Args:
        points: (point id, payload holding at least `path` and `blob_sha`; the other FILE_INDEX_FIELDS
            when stored) pairs.

    Returns:
        path -> FileEntry; a path whose points disagree on the blob SHA or number fewer than their
        `file_chunk_count` gets blob_sha INCOMPLETE, one whose points disagree on `last_modified_at` gets
        `last_modified_mixed`.
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
        fold.counts.add(int(payload.get("file_chunk_count", 0)))
        fold.runs.add(str(payload.get("run_id", "")))
        fold.added = fold.added and bool(payload.get("file_added", False))
    return {path: _entry(fold) for path, fold in files.items()}


def _entry(fold: _FileFold) -> FileEntry:
    run_id = next(iter(fold.runs)) if len(fold.runs) == 1 else ""
    return FileEntry(
        blob_sha=fold.complete_sha(),
        point_ids=frozenset(fold.ids),
        last_modified_at=msgspec.UNSET if fold.mixed else fold.stamp,
        last_modified_mixed=fold.mixed,
        run_id=run_id,
        added_by_run=bool(run_id) and fold.added,
    )
