"""The scratch git directory that borrows a repository's objects works wherever the repository lies."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sextant.gitsource.borrowed_git_dir import borrowed_git_dir
from sextant.gitsource.history_access import open_history

from ..conftest import GitRepo

FOLDERS = [
    "plain",
    "with space: and colon",
    "unicodé 日本",
    os.fsdecode(b"latin-1 caf\xe9"),  # not UTF-8: Linux allows any bytes in a name
]


@pytest.mark.parametrize("folder", FOLDERS)
def test_blame_reads_the_objects_of_a_repository_in_any_folder(tmp_path: Path, folder: str) -> None:
    repo = GitRepo(tmp_path / folder)
    repo.write("docs/guide.md", "# Guide\n\nCall `place`.\n")
    sha = repo.commit("guide")
    history = open_history(repo.root)
    with borrowed_git_dir(history) as plain:
        assert plain.git_dir != history.git_dir
        out = plain.git(["blame", "--porcelain", "-L", "3,3", history.head, "--", "docs/guide.md"])
    assert out.split(b" ", 1)[0].decode() == sha
