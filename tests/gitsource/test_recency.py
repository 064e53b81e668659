"""Recency scans of real repositories built here: clones over file://, in-place reads, windows."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sextant.gitsource.access import RepoSource, git_environment
from sextant.gitsource.clone import clone_blobless
from sextant.gitsource.errors import BranchNotFoundError
from sextant.gitsource.recency import (
    clone_for_recency,
    describe_scan,
    incremental_recency,
    read_recency,
    scan_recency,
)

Y2020 = "2020-03-01T10:00:00+00:00"
Y2021 = "2021-03-01T10:00:00+00:00"
Y2024 = "2024-03-01T10:00:00+00:00"
Y2025 = "2025-03-01T10:00:00+00:00"
Y2025B = "2025-06-01T10:00:00+00:00"
Y2026 = "2026-03-01T10:00:00+00:00"


def both_ways(repo: Any, **kwargs: Any) -> dict[str, str | None]:
    """Scan through a blob-less clone and in place; the two must agree."""
    cloned = scan_recency(RepoSource(repo.url), **kwargs)
    in_place = scan_recency(RepoSource(str(repo.root)), **kwargs)
    assert not cloned.in_place
    assert in_place.in_place
    assert cloned.dates == in_place.dates
    assert cloned.head_sha == in_place.head_sha
    return cloned.dates


def test_linear_history(git_repo: Any) -> None:
    git_repo.write("a.py", "1")
    git_repo.write("docs/readme.md", "1")
    git_repo.commit("one", date=Y2020)
    git_repo.write("a.py", "2")
    git_repo.commit("two", date=Y2024)
    git_repo.write("b.py", "1")
    git_repo.commit("three", date="2026-03-01T12:00:00+02:00")
    assert both_ways(git_repo) == {
        "a.py": Y2024,
        "docs/readme.md": Y2020,
        "b.py": "2026-03-01T10:00:00+00:00",  # normalised to UTC
    }


def test_branchy_history_with_merges(git_repo: Any) -> None:
    git_repo.write("main.py", "1")
    git_repo.write("shared.py", "1")
    git_repo.commit("base", date=Y2020)
    git_repo.git("checkout", "-q", "-b", "feature")
    git_repo.write("feature.py", "1")
    git_repo.write("shared.py", "feature")
    git_repo.commit("feature work", date=Y2024)
    git_repo.git("checkout", "-q", "main")
    git_repo.write("main.py", "2")
    git_repo.commit("main work", date=Y2025)
    git_repo.git("merge", "-q", "--no-ff", "-m", "merge feature", "feature", date=Y2026)
    dates = both_ways(git_repo)
    # A merge lists no files (git log's default): side-branch files keep the side commit's date.
    assert dates == {"main.py": Y2025, "shared.py": Y2024, "feature.py": Y2024}


def test_renames_deletions_and_re_additions(git_repo: Any) -> None:
    git_repo.write("old/name.py", "x" * 200)
    git_repo.write("gone.txt", "bye")
    git_repo.write("back.txt", "v1")
    git_repo.commit("one", date=Y2020)
    git_repo.move("old/name.py", "new/name.py")
    git_repo.remove("gone.txt")
    git_repo.remove("back.txt")
    git_repo.commit("rename and delete", date=Y2021)
    git_repo.write("back.txt", "v2")
    git_repo.commit("re-add", date=Y2024)
    assert both_ways(git_repo) == {"new/name.py": Y2021, "back.txt": Y2024}


def test_weird_paths_are_named_exactly_as_the_tree_names_them(git_repo: Any) -> None:
    names = ["with space.txt", 'quo"te.md', "new\nline.txt", "ünïcode/日本.md", os.fsdecode(b"raw\xff.bin")]
    for name in names:
        git_repo.write(name, "x")
    git_repo.commit("weird", date=Y2025)
    shown = ["with space.txt", 'quo"te.md', "new\\nline.txt", "ünïcode/日本.md", "raw\\xff.bin"]
    assert both_ways(git_repo) == dict.fromkeys(shown, Y2025)  # the text form: every key encodes as UTF-8


@pytest.fixture
def windowed_repo(git_repo: Any) -> Any:
    git_repo.write("ancient.txt", "1")
    git_repo.write("twice.txt", "1")
    git_repo.write("edge.txt", "1")
    git_repo.commit("2020", date=Y2020)
    git_repo.write("twice.txt", "2")
    git_repo.commit("2021", date=Y2021)
    git_repo.write("edge.txt", "2")  # the oldest commit inside the window
    git_repo.commit("2025", date=Y2025)
    git_repo.write("twice.txt", "3")
    git_repo.commit("2026", date=Y2026)
    return git_repo


def test_window_cuts_history(windowed_repo: Any) -> None:
    dates = both_ways(windowed_repo, window="2024-01-01")
    # ancient.txt is older than the window; edge.txt changed in the window's oldest commit.
    assert dates == {"ancient.txt": None, "twice.txt": Y2026, "edge.txt": Y2025}


def test_window_after_every_commit_leaves_all_paths_undated(windowed_repo: Any) -> None:
    dates = both_ways(windowed_repo, window="2027-01-01")
    assert dates == {"ancient.txt": None, "twice.txt": None, "edge.txt": None}


def test_boundary_commit_never_dates_its_files(
    windowed_repo: Any, tmp_path: Path, count_objects: Callable[[Path, str], int]
) -> None:
    # Without the one-generation deepen the window's oldest commit is a boundary: conservative None.
    source = RepoSource(windowed_repo.url)
    env = git_environment(source)
    git_dir = tmp_path / "shallow.git"
    clone_blobless(source, git_dir, env=env, secrets=(), timeout=60, shallow_since="2024-01-01")
    assert (git_dir / "shallow").exists()
    _, dates, commits = read_recency(git_dir, "HEAD", env=env)
    assert dates == {"ancient.txt": None, "twice.txt": Y2026, "edge.txt": None}
    assert commits == 2
    assert count_objects(git_dir, "blob") == 0


@pytest.mark.parametrize("window", [None, "2024-01-01"])
def test_scan_fetches_no_blob(
    windowed_repo: Any, tmp_path: Path, count_objects: Callable[[Path, str], int], window: str | None
) -> None:
    windowed_repo.move("edge.txt", "renamed/edge.txt")  # rename detection would fetch blobs
    windowed_repo.commit("rename", date=Y2026)
    windowed_repo.git("config", "--unset", "uploadpack.allowFilter")  # our upload-pack turns it on
    source = RepoSource(windowed_repo.url)
    env = git_environment(source)
    git_dir = tmp_path / "scan.git"
    clone_for_recency(source, git_dir, window=window, env=env, secrets=(), timeout=60)
    _, dates, _ = read_recency(git_dir, "HEAD", env=env)
    assert dates["renamed/edge.txt"] == Y2026
    assert count_objects(git_dir, "blob") == 0
    assert count_objects(git_dir, "tree") > 0
    assert scan_recency(source, window).dates == dates


def test_temp_clone_is_removed(git_repo: Any, tmp_path: Path) -> None:
    git_repo.write("a.txt", "1")
    git_repo.commit("one")
    work = tmp_path / "work"
    work.mkdir()
    scan = scan_recency(RepoSource(git_repo.url), work_dir=work)
    assert scan.files == 1
    assert list(work.iterdir()) == []
    with pytest.raises(BranchNotFoundError):
        scan_recency(RepoSource(git_repo.url, branch="nope"), work_dir=work)
    assert list(work.iterdir()) == []


def test_branch_selection_and_missing_branch(git_repo: Any) -> None:
    git_repo.write("a.txt", "1")
    git_repo.commit("one", date=Y2020)
    git_repo.git("branch", "release")
    git_repo.write("b.txt", "1")
    git_repo.commit("two", date=Y2025)
    for url in (git_repo.url, str(git_repo.root)):
        assert scan_recency(RepoSource(url, branch="release")).dates == {"a.txt": Y2020}
        with pytest.raises(BranchNotFoundError, match="nope"):
            scan_recency(RepoSource(url, branch="nope"))


def test_empty_repository_is_a_missing_branch(git_repo: Any) -> None:
    for url in (git_repo.url, str(git_repo.root)):
        with pytest.raises(BranchNotFoundError):
            scan_recency(RepoSource(url))


def test_summary_and_early_stop(git_repo: Any) -> None:
    git_repo.write("a.txt", "1")
    git_repo.commit("one", date=Y2020)
    for index in range(5):
        git_repo.write("a.txt", str(index))
        git_repo.commit(f"edit {index}", date=Y2025)
    scan = scan_recency(RepoSource(str(git_repo.root)))
    # The newest commit dates the only file: the log is stopped there.
    assert scan.commits_read == 1
    assert (scan.files, scan.dated) == (1, 1)
    line = describe_scan(scan)
    assert "1 commits read, 1 files (1 dated)" in line
    assert scan.head_sha[:12] in line


def test_incremental_recency() -> None:
    assert incremental_recency(["a.py", "b.md"], "2026-05-28T12:00:00+02:00") == {
        "a.py": "2026-05-28T10:00:00+00:00",
        "b.md": "2026-05-28T10:00:00+00:00",
    }
    assert incremental_recency(["a.py"], "2026-05-28T10:00:00Z") == {"a.py": "2026-05-28T10:00:00+00:00"}
    assert incremental_recency(["a.py"], None) == {"a.py": None}  # never "now"
    with pytest.raises(ValueError, match="ISO 8601"):
        incremental_recency(["a.py"], "yesterday")


def test_paths_only_a_merge_brought_get_the_merge_date(
    git_repo: Any, tmp_path: Path, count_objects: Callable[[Path, str], int]
) -> None:
    git_repo.write("app.py", "1")
    git_repo.commit("base", date=Y2020)
    # A subtree merge: lib.txt lives at the root of an unrelated history and lands as vendor/lib.txt.
    git_repo.git("checkout", "-q", "--orphan", "lib")
    git_repo.git("rm", "-rq", "--cached", ".")
    (git_repo.root / "app.py").unlink()
    git_repo.write("lib.txt", "lib")
    git_repo.commit("lib history", date=Y2021)
    git_repo.git("checkout", "-q", "-f", "main")
    git_repo.git("merge", "-q", "-s", "ours", "--no-commit", "--allow-unrelated-histories", "lib")
    git_repo.git("read-tree", "--prefix=vendor/", "-u", "lib")
    git_repo.git("commit", "-q", "-m", "subtree merge", date=Y2024)
    # An evil merge: a file created while merging, in no ordinary commit.
    git_repo.git("checkout", "-q", "-b", "side")
    git_repo.write("side.py", "1")
    git_repo.commit("side", date=Y2025)
    git_repo.git("checkout", "-q", "main")
    git_repo.git("merge", "-q", "--no-ff", "--no-commit", "side")
    git_repo.write("made-in-merge.txt", "x")
    git_repo.git("add", "made-in-merge.txt")
    git_repo.git("commit", "-q", "-m", "merge side", date=Y2026)
    assert both_ways(git_repo) == {
        "app.py": Y2020,
        "vendor/lib.txt": Y2024,
        "side.py": Y2025,
        "made-in-merge.txt": Y2026,
    }
    source = RepoSource(git_repo.url)
    env = git_environment(source)
    git_dir = tmp_path / "scan.git"
    clone_for_recency(source, git_dir, window=None, env=env, secrets=(), timeout=60)
    read_recency(git_dir, "HEAD", env=env)
    assert count_objects(git_dir, "blob") == 0


def test_a_repositorys_own_log_settings_do_not_undate_its_first_commits_files(git_repo: Any) -> None:
    git_repo.write("a.py", "1")
    git_repo.write("docs/readme.md", "1")
    git_repo.commit("one", date=Y2020)
    git_repo.write("a.py", "2")
    git_repo.commit("two", date=Y2024)
    git_repo.git("config", "log.showRoot", "false")  # read in place, git reads the repository's config

    assert scan_recency(RepoSource(str(git_repo.root))).dates == {"a.py": Y2024, "docs/readme.md": Y2020}
