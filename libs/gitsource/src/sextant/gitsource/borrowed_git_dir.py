"""A scratch git directory that borrows a repository's objects, so none of the repository's config applies.

A repository's own `.git/config` can steer what some commands answer: `blame.ignoreRevsFile`
makes blame skip the listed commits (lines are dated by older ones), and a relative path there
makes blame fail outright when it runs from another folder. git offers no option that clears it
in every case (`-c blame.ignoreRevsFile=` adds to the list, it does not empty it). A git directory
of our own, whose objects are the repository's through `objects/info/alternates`, with the head
commit detached in its HEAD and no config, reads the same history under git's defaults. Only the
object format (sha256) and a shallow clone's boundary are carried over, since they say what the
objects are, not how to read them.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sextant.gitsource.history_access import HistoryRepository


@contextmanager
def borrowed_git_dir(repo: HistoryRepository) -> Iterator[HistoryRepository]:
    """The repository seen through a scratch git directory with its objects and no config of its own.

    Args:
        repo: The opened repository.

    Returns:
        A context manager yielding the same repository (head, environment) with the scratch
        directory as its git directory; the directory is removed when the block ends.
    """
    paths = repo.git(["rev-parse", "--path-format=absolute", "--git-path", "objects", "--git-path", "shallow"])
    objects, shallow = (Path(line) for line in paths.decode("utf-8", "surrogateescape").splitlines()[:2])
    object_format = repo.git(["rev-parse", "--show-object-format"]).decode().strip() or "sha1"
    with tempfile.TemporaryDirectory(prefix="sextant-git-") as scratch:
        root = Path(scratch)
        (root / "objects" / "info").mkdir(parents=True)
        (root / "refs").mkdir()
        # The path as the file system spells it: a folder name need not be UTF-8.
        (root / "objects" / "info" / "alternates").write_bytes(os.fsencode(objects) + b"\n")
        (root / "HEAD").write_text(f"{repo.head}\n", encoding="ascii")
        if object_format != "sha1":
            (root / "config").write_text(
                f"[core]\n\trepositoryformatversion = 1\n[extensions]\n\tobjectformat = {object_format}\n",
                encoding="ascii",
            )
        if shallow.is_file():
            shutil.copyfile(shallow, root / "shallow")
        yield dataclasses.replace(repo, git_dir=root)
