"""Git's own hunks of chosen blob pairs, through one long-lived diff-tree, without writing to the repository."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sextant.gitsource.access import RepoSource, git_environment
from sextant.indexer.blob_pair_diffs import BlobPairDiffs, hunk_counts

from ..conftest import GitRepo


def _blob(git_repo: Any, spec: str) -> str:
    return git_repo.git("rev-parse", spec).strip()


def _git_hunks(git_repo: Any, old: str, new: str) -> list[tuple[int, int, int]]:
    """The hunks `git diff -U0` prints for two blobs (what `git blame` steps over)."""
    patch = git_repo.git("diff", "-U0", "--no-color", old, new)
    return [hunk_counts(line[4:].encode()) for line in patch.splitlines() if line.startswith("@@ -")]


def _objects(git_dir: Path) -> set[str]:
    return {str(path.relative_to(git_dir)) for path in (git_dir / "objects").rglob("*") if path.is_file()}


def test_each_pair_gets_the_hunks_git_diff_prints_and_the_repository_is_not_written(git_repo: Any) -> None:
    versions = [
        "a = 1\nb = 2\nc = 3\n",
        "a = 1\nb = 20\nc = 3\nd = 4\n",
        "b = 20\nc = 3\n\n\nd = 4\n",
        "b = 20\nc = 3\n\n\nd = 4",  # no newline at the end
    ]
    blobs = []
    for number, text in enumerate(versions):
        git_repo.write("m.py", text)
        blobs.append(_blob(git_repo, git_repo.commit(f"v{number}") + ":m.py"))
    git_dir = git_repo.root / ".git"
    before = _objects(git_dir)
    pairs = [(blobs[n], blobs[n + 1]) for n in range(len(blobs) - 1)] * 2  # a blob's tree is reused

    differ = BlobPairDiffs(git_dir, git_environment(RepoSource(url=str(git_repo.root))), timeout=60)
    try:
        differ.prepare([blobs[0], blobs[1]])
        found = differ.hunks(pairs)
    finally:
        differ.close()

    assert found == [_git_hunks(git_repo, old, new) for old, new in pairs]
    assert all(found)
    assert _objects(git_dir) == before  # the trees git diffs live in a scratch folder, now gone
    assert differ.pairs_diffed == len(pairs)


def test_more_pairs_than_one_batch_keep_their_order(git_repo: Any) -> None:
    blobs = []
    for number in range(6):
        git_repo.write("m.py", "".join(f"line {n}\n" for n in range(number, number + 10)))
        blobs.append(_blob(git_repo, git_repo.commit(f"v{number}") + ":m.py"))
    pairs = [(blobs[n % 5], blobs[n % 5 + 1]) for n in range(600)]  # more than BATCH_PAIRS

    differ = BlobPairDiffs(git_repo.root / ".git", dict(os.environ), timeout=60)
    try:
        found = differ.hunks(pairs)
    finally:
        differ.close()

    expected = {pair: _git_hunks(git_repo, *pair) for pair in set(pairs)}
    assert found == [expected[pair] for pair in pairs]


def test_a_repository_under_a_folder_whose_name_holds_a_colon_is_diffed(tmp_path: Path) -> None:
    git_repo = GitRepo(tmp_path / 'team:a "b"' / "repo")  # git splits its alternates list at ':'
    git_repo.write("m.py", "a = 1\n")
    old = _blob(git_repo, git_repo.commit("v0") + ":m.py")
    git_repo.write("m.py", "a = 1\nb = 2\n")
    new = _blob(git_repo, git_repo.commit("v1") + ":m.py")

    differ = BlobPairDiffs(git_repo.root / ".git", git_environment(RepoSource(url=str(git_repo.root))), timeout=60)
    try:
        found = differ.hunks([(old, new)])
    finally:
        differ.close()

    assert found == [_git_hunks(git_repo, old, new)] == [[(0, 2, 1)]]


def test_a_pair_whose_text_looks_like_diff_headers_keeps_its_own_hunks_and_the_next_pair_its_own(
    git_repo: Any,
) -> None:
    # A batch's diffs are told apart by their `diff --git` and `index` lines; text that reads like them
    # (and like the batch's end mark) is a diff line there, behind its sign.
    tricky = ["#\n", "diff --git a/f b/f\n", "index 0000..1111 100644\n", "@@ -1 +1 @@\n"]
    versions = ["".join(tricky), "x\n" + "".join(reversed(tricky)) + "#\n", "a\nb\n", "a\nc\nb\n"]
    blobs = []
    for number, text in enumerate(versions):
        git_repo.write("m.py", text)
        blobs.append(_blob(git_repo, git_repo.commit(f"v{number}") + ":m.py"))
    pairs = [(blobs[0], blobs[1]), (blobs[2], blobs[3]), (blobs[1], blobs[0]), (blobs[2], blobs[3])]

    differ = BlobPairDiffs(git_repo.root / ".git", dict(os.environ), timeout=60)
    try:
        found = differ.hunks(pairs)
    finally:
        differ.close()

    assert found == [_git_hunks(git_repo, old, new) for old, new in pairs]
    assert found[1] == found[3] == [(0, 2, 1)]
