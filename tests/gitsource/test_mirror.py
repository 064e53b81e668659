"""The repository mirror: clone once, fetch later, trees, batched blob reads, diffs."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sextant.gitsource import path_bytes
from sextant.gitsource.access import RepoSource
from sextant.gitsource.errors import BranchNotFoundError, GitSourceError
from sextant.gitsource.mirror import RepoMirror, TreeEntry

CountObjects = Callable[[Path, str], int]


@pytest.fixture
def source_repo(git_repo: Any) -> Any:
    files = {"src/app.py": "print('v1')\n", "README.md": "# demo\n"}
    git_repo.commit_files("one", files, date="2025-01-01T00:00:00+00:00")
    return git_repo


def test_first_sync_clones_without_blobs_and_later_syncs_fetch(
    source_repo: Any, tmp_path: Path, count_objects: CountObjects
) -> None:
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(source_repo.url)
    first = mirror.sync(source)
    assert first.head_sha == source_repo.git("rev-parse", "HEAD").strip()
    assert first.head_commit_date == "2025-01-01T00:00:00+00:00"
    git_dir = Path(first.path)
    assert git_dir.parent == tmp_path / "cache"
    assert count_objects(git_dir, "blob") == 0

    source_repo.write("src/app.py", "print('v2')\n")
    head = source_repo.commit("two", date="2026-01-01T00:00:00+00:00")
    second = mirror.sync(source)
    assert (second.head_sha, second.path) == (head, first.path)
    assert second.head_commit_date == "2026-01-01T00:00:00+00:00"
    assert count_objects(git_dir, "blob") == 0


def test_no_change_resync_is_one_fetch_and_one_head_read(source_repo: Any, tmp_path: Path, trace2: Any) -> None:
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(source_repo.url)
    state = mirror.sync(source)
    trace2.clear()
    assert mirror.sync(source) == state
    assert [argv[0] for argv in trace2.commands()] == ["fetch", "log"]
    trace2.clear()
    mirror.list_tree(source, state.head_sha)
    assert [argv[0] for argv in trace2.commands()] == ["ls-tree"]


def test_list_tree_lists_regular_files_with_blob_shas(source_repo: Any, tmp_path: Path) -> None:
    weird = ["dir/with space.py", "ünï/日本.md", "new\nline.txt", os.fsdecode(b"raw\xff.txt")]
    for name in weird:
        source_repo.write(name, "x\n")
    source_repo.write("run.sh", "#!/bin/sh\n")
    (source_repo.root / "run.sh").chmod(0o755)
    (source_repo.root / "link.py").symlink_to("src/app.py")
    submodule_sha = source_repo.git("rev-parse", "HEAD").strip()
    source_repo.git("update-index", "--add", "--cacheinfo", f"160000,{submodule_sha},vendor/sub")
    head = source_repo.commit("more")
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(source_repo.url)
    mirror.sync(source)
    entries = mirror.list_tree(source, head)
    by_path = {entry.path: entry for entry in entries}
    # Paths in their text form: plain UTF-8 as is, anything else escaped (exact and reversible).
    shown = {"dir/with space.py", "ünï/日本.md", "new\\nline.txt", "raw\\xff.txt"}
    assert set(by_path) == {"README.md", "src/app.py", "run.sh", *shown}  # no symlink, no submodule
    assert {path_bytes(path) for path in shown} == {os.fsencode(name) for name in weird}
    assert by_path["run.sh"].mode == "100755"
    assert by_path["README.md"] == TreeEntry(
        "README.md", source_repo.git("rev-parse", f"{head}:README.md").strip(), "100644"
    )


def test_read_blobs_fetches_missing_blobs_in_one_batch(
    git_repo: Any, tmp_path: Path, trace2: Any, count_objects: CountObjects
) -> None:
    for index in range(40):
        git_repo.write(f"f{index:02}.txt", f"content {index}\n" * 3)
    git_repo.write("big.bin", b"\0" * 5000)
    head = git_repo.commit("many")
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(git_repo.url)
    state = mirror.sync(source)
    entries = mirror.list_tree(source, head)
    shas = {entry.path: entry.blob_sha for entry in entries}
    trace2.clear()
    blobs = mirror.read_blobs(source, list(shas.values()), max_bytes=1000)
    fetches = [argv for argv in trace2.commands(top_level=False) if argv[0] == "fetch"]
    assert len(fetches) == 1  # one batch, no lazy fetch per blob
    assert blobs[shas["f07.txt"]] == b"content 7\n" * 3
    assert blobs[shas["big.bin"]] is None  # over max_bytes
    assert count_objects(Path(state.path), "blob") == 41
    trace2.clear()
    again = mirror.read_blobs(source, [shas["f01.txt"]], max_bytes=1000)
    assert again == {shas["f01.txt"]: b"content 1\n" * 3}
    assert not [argv for argv in trace2.commands(top_level=False) if argv[0] == "fetch"]


def test_read_blobs_refuses_bad_ids(source_repo: Any, tmp_path: Path) -> None:
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(source_repo.url)
    mirror.sync(source)
    with pytest.raises(GitSourceError, match="object id"):
        mirror.read_blobs(source, ["--upload-pack=x"], max_bytes=10)
    assert mirror.read_blobs(source, [], max_bytes=10) == {}


def test_changed_paths_and_diff(source_repo: Any, tmp_path: Path, count_objects: CountObjects) -> None:
    base = source_repo.git("rev-parse", "HEAD").strip()
    source_repo.write("src/app.py", "print('v2')\n")
    source_repo.write("new.md", "hello\n")
    source_repo.remove("README.md")
    head = source_repo.commit("change")
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(source_repo.url)
    state = mirror.sync(source)
    assert mirror.changed_paths(source, base, head) == ["README.md", "new.md", "src/app.py"]
    assert count_objects(Path(state.path), "blob") == 0  # tree diff only
    patch = mirror.diff(source, base, head)
    assert "-print('v1')" in patch
    assert "+print('v2')" in patch
    assert "+hello" in patch


def test_diff_fetches_a_commit_the_mirror_lacks(source_repo: Any, tmp_path: Path) -> None:
    base = source_repo.git("rev-parse", "HEAD").strip()
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(source_repo.url, branch="main")
    mirror.sync(source)
    source_repo.git("checkout", "-q", "-b", "pr")
    source_repo.write("src/app.py", "print('pr')\n")
    pr_head = source_repo.commit("pr change")
    assert mirror.changed_paths(source, base, pr_head) == ["src/app.py"]


def test_branches_share_one_mirror_and_missing_branch_is_clear(source_repo: Any, tmp_path: Path) -> None:
    source_repo.git("branch", "release")
    source_repo.write("later.txt", "x")
    main_head = source_repo.commit("later")
    mirror = RepoMirror(tmp_path / "cache")
    default = mirror.sync(RepoSource(source_repo.url))
    release = mirror.sync(RepoSource(source_repo.url, branch="release"))
    main = mirror.sync(RepoSource(source_repo.url, branch="main"))
    assert default.path == release.path == main.path
    assert default.head_sha == main.head_sha == main_head
    assert release.head_sha != main_head
    with pytest.raises(BranchNotFoundError, match="nope"):
        mirror.sync(RepoSource(source_repo.url, branch="nope"))
    with pytest.raises(BranchNotFoundError, match="nope"):
        RepoMirror(tmp_path / "other").sync(RepoSource(source_repo.url, branch="nope"))
    assert [path.name for path in (tmp_path / "other").iterdir() if not path.name.endswith(".lock")] == []


def test_local_repository_is_read_in_place(source_repo: Any, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    mirror = RepoMirror(cache)
    source = RepoSource(str(source_repo.root))
    state = mirror.sync(source)
    assert state.in_place
    assert Path(state.path) == source_repo.root / ".git"
    entry = next(entry for entry in mirror.list_tree(source, state.head_sha) if entry.path == "README.md")
    assert mirror.read_blobs(source, [entry.blob_sha], max_bytes=100) == {entry.blob_sha: b"# demo\n"}
    assert not cache.exists()
    with pytest.raises(GitSourceError, match="not in the local repository"):
        mirror.read_blobs(source, ["0" * 40], max_bytes=100)


def test_mirror_folder_is_named_from_the_url_only(tmp_path: Path) -> None:
    mirror = RepoMirror(tmp_path)
    plain = mirror.mirror_dir(RepoSource("https://github.com/org/repo.git"))
    with_token = mirror.mirror_dir(RepoSource("https://github.com/org/repo.git", token="sekret", provider="github"))
    assert plain == with_token
    assert plain.name.startswith("repo-")
    assert "sekret" not in str(plain)


def test_a_local_repositorys_diff_settings_do_not_change_the_headers(source_repo: Any, tmp_path: Path) -> None:
    # Read in place, git reads the repository's own config; the reviewer reads files from a/ b/ headers.
    base = source_repo.git("rev-parse", "HEAD").strip()
    source_repo.write("src/app.py", "print('v2')\n")
    head = source_repo.commit("change")
    for key, value in [("diff.noprefix", "true"), ("diff.mnemonicPrefix", "true")]:
        source_repo.git("config", key, value)
    source = RepoSource(str(source_repo.root))

    patch = RepoMirror(tmp_path / "cache").diff(source, base, head)

    assert "diff --git a/src/app.py b/src/app.py\n" in patch
    assert "\n+++ b/src/app.py\n" in patch
