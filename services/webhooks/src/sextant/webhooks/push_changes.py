"""What a push changed, over all of its commits: the paths to re-index and the paths to delete."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class CommitFiles:
    """One commit's file lists, as both hosts report them."""

    added: Sequence[str]
    modified: Sequence[str]
    removed: Sequence[str]


def changed_and_removed(commits: Iterable[CommitFiles]) -> tuple[list[str], list[str]]:
    """Fold commits, oldest first, into the net effect on each path.

    A path removed and later re-added is changed; a path changed and later removed is removed.

    Args:
        commits: The push's commits in order.

    Returns:
        (changed paths, removed paths), each sorted.
    """
    state: dict[str, bool] = {}  # path -> present after the push
    for commit in commits:
        for path in [*commit.added, *commit.modified]:
            state[path] = True
        for path in commit.removed:
            state[path] = False
    changed = sorted(path for path, present in state.items() if present)
    removed = sorted(path for path, present in state.items() if not present)
    return changed, removed
