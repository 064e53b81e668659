"""Changelogs and release notes: docs about history, not held to the current code."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

_HISTORY_FILE = re.compile(r"^(?:changelog|changes|history|news|release[-_ ]?notes?|releases?)\b", re.I)
_HISTORY_FOLDERS = frozenset(
    {
        "changelog",
        "changelogs",
        "changes",
        "release-notes",
        "release_notes",
        "releasenotes",
        "releases",
        "changelog.d",
        "newsfragments",
    }
)


def is_history_doc(path: str) -> bool:
    """Whether a doc records history (CHANGELOG*, CHANGES*, HISTORY*, NEWS*, RELEASE*NOTES*, ...).

    Such docs name functions and flags that existed when each entry was written; checking them
    against today's code would report every past rename as a contradiction. They are skipped.

    Args:
        path: Repository path of the doc.

    Returns:
        True for history files and for anything under a changelog or release-notes folder.
    """
    pure = PurePosixPath(path.replace("\\", "/"))
    if any(part.lower() in _HISTORY_FOLDERS for part in pure.parts[:-1]):
        return True
    return _HISTORY_FILE.match(pure.name) is not None
