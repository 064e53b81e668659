"""Where the index can speak: which paths it could hold at all, so an absent one is judged only there.

The indexer holds a file only when its language is known (by extension, or a few well-known names
such as Makefile and Dockerfile) or it is a doc, and only files git tracks. Two kinds of path are
therefore beyond its sight, and their absence contradicts nothing:

- A file of a kind it never indexes: an unknown extension (`.env.example`, `logo.png`) or an
  extension-less name that is not a known language (`LICENSE`, `.gitignore`, `.ci/run`).
- A path under a hidden folder (a segment starting with a dot) of which the index holds nothing:
  tools keep their state, caches and generated files there (`.tools/`, `.sextant/runtime.json`),
  usually gitignored. When the index does hold files under that hidden folder (`.github/` with its
  workflows), the folder is tracked and indexed like any other, and the usual rules apply: a
  missing `.github/workflows/ci.yml` there is news.
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import PurePosixPath

from sextant.doc_rules.kinds import DOC_EXTENSIONS
from sextant.parsing import language_for_path


def index_can_hold(path: str) -> bool:
    """Whether the indexer indexes a file of this name (the same rule as its discovery).

    Args:
        path: A repository path or just a file name.

    Returns:
        True for a known language (by extension or a name such as Makefile) or a doc extension.
    """
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return language_for_path(name) is not None or PurePosixPath(name).suffix.lower() in DOC_EXTENSIONS


def has_no_extension(path: str) -> bool:
    """Whether a path's last segment has no extension (`run`, `src/app`, `.gitignore`)."""
    name = path.rstrip("/").rsplit("/", 1)[-1]
    return PurePosixPath(name).suffix == ""


def unindexed_hidden_folder(path: str, directories: Collection[str]) -> str | None:
    """The first hidden folder on a path of which the index holds no file, if any.

    Args:
        path: A normalised repository path; a trailing slash marks the last segment as a folder.
        directories: Every folder that holds an indexed file (CodeFacts.directories).

    Returns:
        The hidden folder's path (`.sextant`, `bench/.work`), or None when every hidden folder on the
        path holds indexed files, or there is none.
    """
    segments = [segment for segment in path.split("/") if segment]
    folders = segments if path.endswith("/") else segments[:-1]
    for depth, segment in enumerate(folders, start=1):
        folder = "/".join(segments[:depth])
        if segment.startswith(".") and segment not in {".", ".."} and folder not in directories:
            return folder
    return None
