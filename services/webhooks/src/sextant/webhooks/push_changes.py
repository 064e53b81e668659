"""What a push changed, over all of its commits: the paths to re-index and the paths to delete."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

BRANCH_PREFIX = "refs/heads/"
"""A push to a branch names its ref with this prefix (tags and other refs are not indexed)."""
NULL_SHA = "0" * 40
"""The `after` of a push that deleted its branch."""


class PushedCommit(msgspec.Struct, kw_only=True):
    """One commit of a push, in the shape GitHub and GitLab both send."""

    id: str = ""
    timestamp: str | None = None
    added: list[str] = msgspec.field(default_factory=list)
    modified: list[str] = msgspec.field(default_factory=list)
    removed: list[str] = msgspec.field(default_factory=list)


def changed_and_removed(commits: Iterable[PushedCommit]) -> tuple[list[str], list[str]]:
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
