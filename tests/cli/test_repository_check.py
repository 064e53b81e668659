"""The CLI's check of a local repository accepts exactly the folders the indexer reads.

git itself looks upward from a folder for its repository; the indexer reads the repository at the
folder it is given and nowhere else. A check that let `repo/sub` through would publish a request
the indexer then fails; so a folder inside a repository is refused before anything is published,
with the line naming the repository's top level to give instead.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from sextant.cli.repository_check import check_local_repository, repository_location
from sextant.cli.usage_problem import UsageError
from sextant.gitsource.access import RepoSource, git_environment
from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.local_repository import resolve_local_git_dir

from ..conftest import GitRepo
from .conftest import SextantRunner


@pytest.fixture
def repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit_files("first", {"README.md": "# Shop\n", "shop/orders.py": "def order():\n    return 1\n"})
    return git_repo


def test_a_folder_inside_a_repository_is_refused_naming_its_top_level(repo: GitRepo) -> None:
    inside = repo.root / "shop"

    with pytest.raises(UsageError) as refused:
        check_local_repository(str(inside))

    message = str(refused.value)
    assert f"{inside} is a folder inside the git repository {repo.root.resolve()}" in message
    assert message.endswith(f"give {repo.root.resolve()}")


def _indexer_reads(folder: Path) -> bool:
    try:
        resolve_local_git_dir(folder.resolve(), env=git_environment(RepoSource(url=str(folder.resolve()))), timeout=30)
    except GitSourceError:
        return False
    return True


def _check_accepts(folder: Path) -> bool:
    try:
        check_local_repository(str(folder))
    except UsageError:
        return False
    return True


def test_the_check_and_the_indexer_agree_on_every_kind_of_folder(repo: GitRepo, tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo.root), str(bare)], check=True)
    worktree = tmp_path / "linked"
    repo.git("worktree", "add", "-q", "-b", "side", str(worktree))
    (repo.root / "empty" / "deeper").mkdir(parents=True)  # untracked, as a fresh folder in a checkout is
    outside = tmp_path / "plain"
    outside.mkdir()
    link = tmp_path / "shop-link"
    link.symlink_to(repo.root / "shop")
    folders = {
        "top level": repo.root, "git dir": repo.root / ".git", "bare": bare, "linked worktree": worktree,
        "tracked subfolder": repo.root / "shop", "untracked subfolder": repo.root / "empty" / "deeper",
        "worktree subfolder": worktree / "shop", "bare's objects": bare / "objects",
        "link to a subfolder": link, "no repository": outside,
    }  # fmt: skip

    verdicts = {name: (_check_accepts(folder), _indexer_reads(folder)) for name, folder in folders.items()}

    assert {name: check for name, (check, indexer) in verdicts.items() if check != indexer} == {}
    accepted = {name for name, (check, _) in verdicts.items() if check}
    assert accepted == {"top level", "git dir", "bare", "linked worktree"}


def test_a_relative_subfolder_is_named_as_typed_and_its_top_level_absolute(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo.root)

    with pytest.raises(UsageError, match=f"^shop is a folder inside the git repository {repo.root.resolve()}"):
        check_local_repository("shop")
    check_local_repository(os.curdir)  # the top level itself, however it is named


@pytest.mark.process
def test_index_of_a_subfolder_stops_before_anything_is_published(
    repo: GitRepo, sextant: SextantRunner, sextant_env: dict[str, str]
) -> None:
    result = sextant("index", str(repo.root / "shop"), check=False)

    assert result.returncode == 2, result.stderr
    assert result.stderr.strip() == (
        f"sextant: {repo.root / 'shop'} is a folder inside the git repository {repo.root.resolve()}; "
        f"Sextant reads a repository from its top level: give {repo.root.resolve()}"
    )
    assert not Path(sextant_env["SEXTANT_HOME"]).exists()  # no runtime started, no request stored


def test_a_file_is_refused_naming_the_repository_it_is_in(repo: GitRepo, tmp_path: Path) -> None:
    with pytest.raises(UsageError) as refused:
        check_local_repository(str(repo.root / "README.md"))
    assert (
        str(refused.value)
        == f"{repo.root / 'README.md'} is a file, not a repository folder: give {repo.root.resolve()}"
    )

    loose = tmp_path / "notes.txt"
    loose.write_text("x\n")
    with pytest.raises(UsageError) as refused:
        check_local_repository(str(loose))
    assert str(refused.value).endswith("is a file, not a repository folder: give the repository's top-level folder")


@pytest.mark.parametrize("typed", ["", "  "])
def test_an_empty_repository_argument_is_refused_instead_of_meaning_the_current_folder(typed: str) -> None:
    with pytest.raises(UsageError, match="the repository is empty: give a repository path or URL"):
        repository_location(typed)
    with pytest.raises(UsageError, match="the repository is empty"):
        check_local_repository(typed)
