"""Fold a payload-only scroll into path -> FileEntry, the input of the incremental check."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from sextant.chunkstore.points import FileEntry

FILE_INDEX_FIELDS = ("path", "blob_sha")
"""The only payload fields the scroll behind `file_index` needs to fetch."""


def build_file_index(points: Iterable[tuple[str, Mapping[str, Any]]]) -> dict[str, FileEntry]:
    """Group scrolled points by path.

    Args:
        points: (point id, payload holding at least `path` and `blob_sha`) pairs.

    Returns:
        path -> FileEntry; a path whose points disagree on the blob SHA gets blob_sha "".
    """
    shas: dict[str, set[str]] = {}
    ids: dict[str, set[str]] = {}
    for point, payload in points:
        path = payload["path"]
        shas.setdefault(path, set()).add(payload["blob_sha"])
        ids.setdefault(path, set()).add(point)
    return {
        path: FileEntry(
            blob_sha=next(iter(path_shas)) if len(path_shas) == 1 else "",
            point_ids=frozenset(ids[path]),
        )
        for path, path_shas in shas.items()
    }
