"""The incremental check: compare the tree with what the store holds and decide the run's work."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sextant.chunkstore import FileEntry

EMPTY_BLOB_SHAS = frozenset(
    {
        "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",  # SHA-1 repositories
        "473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813",  # SHA-256 repositories
    }
)
"""An empty file has nothing to index; known by its blob id, it costs no read on any run."""


@dataclass(frozen=True)
class FileToIndex:
    """A file whose content must be (re-)indexed."""

    path: str
    blob_sha: str
    is_new: bool
    """True when the store holds no point of this path (counted as added, not changed)."""
    old_point_ids: frozenset[str] = frozenset()
    """The file's points before the run: deleted after the new ones are written, unless reused."""


@dataclass(frozen=True)
class RunPlan:
    """What one run does."""

    files_seen: int
    """Indexable files in scope (the whole filtered tree, or the push's paths in an incremental run)."""
    to_index: list[FileToIndex] = field(default_factory=list)
    unchanged_paths: list[str] = field(default_factory=list)
    """Files in scope whose content is already indexed (or empty and never stored): nothing to embed."""
    emptied: dict[str, frozenset[str]] = field(default_factory=dict)
    """Files now empty that still have points: path → point ids to delete."""
    stale_paths: list[str] = field(default_factory=list)
    """Stored paths that left the tree (or the filters): their points are deleted."""

    @property
    def unchanged(self) -> int:
        """How many files in scope need no indexing."""
        return len(self.unchanged_paths)


def plan_run(
    tree: Mapping[str, str],
    stored: Mapping[str, FileEntry],
    *,
    force: bool = False,
    scope: frozenset[str] | None = None,
    run_id: str = "",
) -> RunPlan:
    """Decide which files to index, which are unchanged and which stored paths are stale.

    Args:
        tree: Indexable files at the head after the filters: path → blob SHA.
        stored: What the store holds for the repository (``ChunkStore.file_index``).
        force: Re-index every file in scope even when its blob SHA is unchanged.
        scope: Incremental run: only these paths (changed and removed by the push); None = all.
        run_id: The run being planned: a file an earlier attempt of it began to add is still an addition.

    Returns:
        The plan.
    """
    paths = tree.keys() if scope is None else scope.intersection(tree)
    to_index: list[FileToIndex] = []
    emptied: dict[str, frozenset[str]] = {}
    unchanged: list[str] = []
    for path in sorted(paths):
        blob_sha = tree[path]
        entry = stored.get(path)
        if blob_sha in EMPTY_BLOB_SHAS:
            if entry is not None:
                emptied[path] = entry.point_ids
            else:
                unchanged.append(path)
            continue
        if entry is not None and entry.blob_sha == blob_sha and not force:
            unchanged.append(path)
            continue
        old = entry.point_ids if entry is not None else frozenset()
        is_new = entry is None or (bool(run_id) and entry.run_id == run_id and entry.added_by_run)
        to_index.append(FileToIndex(path, blob_sha, is_new=is_new, old_point_ids=old))
    candidates = stored.keys() if scope is None else scope.intersection(stored)
    return RunPlan(
        files_seen=len(paths),
        to_index=to_index,
        unchanged_paths=unchanged,
        emptied=emptied,
        stale_paths=sorted(path for path in candidates if path not in tree),
    )
