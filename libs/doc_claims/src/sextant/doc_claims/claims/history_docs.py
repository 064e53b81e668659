"""Changelogs and release notes: docs about history, not held to the current code."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import PurePosixPath

_HISTORY_FILE = re.compile(r"^(?:changelog|changes|history|historical|news|release[-_ ]?notes?|releases?)\b", re.I)
# Upgrade guides tell how the old API maps to the new one: their names are history by design.
_UPGRADE_GUIDE = re.compile(
    r"(?:^|[-_ ])(?:migrat\w*|upgrad\w*|porting|switching|whats[-_]?new|what[-_]s[-_]new)(?:[-_ .]|$)", re.I
)
_VERSION_FOLDER = re.compile(r"^v(\d+)(?:\.x)?$", re.I)
# Folders of test fixtures and generated expectations: text shaped like docs, never read as docs.
_NON_PROSE_FOLDERS = frozenset(
    {
        "testdata",
        "test-data",
        "test_data",
        "fixtures",
        "__fixtures__",
        "__snapshots__",
        "snapshots",
        "golden",
        "goldens",
    }
)
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
        "history",
        # Proposals describe an API as someone meant it to be, not as the code has it.
        "proposals",
        # Blog posts are dated announcements: a plan or a release as it was on the day of writing.
        "blog",
    }
)


def is_history_doc(path: str) -> bool:
    """Whether a doc records history (CHANGELOG*, CHANGES*, HISTORY*, historical-notes, NEWS*, ...).

    Such docs name functions and flags that existed when each entry was written; checking them
    against today's code would report every past rename as a contradiction. They are skipped.

    Args:
        path: Repository path of the doc.

    Returns:
        True for history files and for anything under a changelog, release-notes, history or
        proposals folder.
    """
    pure = PurePosixPath(path.replace("\\", "/"))
    if any(part.lower() in _HISTORY_FOLDERS for part in pure.parts[:-1]):
        return True
    return _HISTORY_FILE.match(pure.name) is not None or _UPGRADE_GUIDE.search(pure.stem) is not None


def is_non_prose(path: str) -> bool:
    """Whether a doc-shaped file is a test fixture or expected output (`testdata/expected.md`).

    Args:
        path: Repository path of the file.

    Returns:
        True under testdata/, fixtures/, __snapshots__/ and similar folders.
    """
    return any(part.lower() in _NON_PROSE_FOLDERS for part in PurePosixPath(path).parts[:-1])


def older_version_docs(paths: Iterable[str]) -> set[str]:
    """Docs in folders of older major versions (`docs/v1/`, `docs/v2/` beside `docs/v3/`).

    Such folders document releases still maintained on their own branches; held to the head's code,
    every API change since would read as an error.

    Args:
        paths: Every doc path of the repository.

    Returns:
        The docs under a version folder whose number is below the highest one beside it.
    """
    by_parent: dict[str, dict[str, int]] = {}
    listed = list(paths)
    for path in listed:
        parts = PurePosixPath(path).parts[:-1]
        for depth, part in enumerate(parts):
            if (match := _VERSION_FOLDER.match(part)) is not None:
                by_parent.setdefault("/".join(parts[:depth]), {})[part] = int(match.group(1))
    old: set[str] = set()
    for path in listed:
        parts = PurePosixPath(path).parts[:-1]
        for depth, part in enumerate(parts):
            versions = by_parent.get("/".join(parts[:depth]), {})
            if part in versions and versions[part] < max(versions.values()):
                old.add(path)
    return old
