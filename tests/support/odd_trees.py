"""Trees git holds but text and memory do not like: odd file names, a ``..`` entry, a git bomb.

Built with git's plumbing (``mktree``, ``commit-tree``), as a hostile repository would be: git's
index refuses some of these, a tree object does not.
"""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..conftest import GitRepo

ODD = {
    b"caf\xe9.py": "caf\\xe9.py",
    b"new\nline.py": "new\\nline.py",
    b"back\\slash.md": "back\\\\slash.md",
    b"plain.py": "plain.py",
}
DOTDOT = "../escape.py"


def commit_with_dotdot_entry(repo: GitRepo) -> None:
    """Add a tree entry named ``..`` (git's index refuses one; a hostile tree can still hold it)."""
    blob = repo.git("hash-object", "-w", "plain.py").strip()
    inner = subprocess.run(
        ["git", "-C", str(repo.root), "mktree"], input=f"100644 blob {blob}\tescape.py\n".encode(),
        check=True, capture_output=True,
    ).stdout.decode().strip()  # fmt: skip
    listing = subprocess.run(
        ["git", "-C", str(repo.root), "ls-tree", "-z", "HEAD"], check=True, capture_output=True
    ).stdout
    tree = subprocess.run(
        ["git", "-C", str(repo.root), "mktree", "-z"], input=listing + f"040000 tree {inner}\t..\0".encode(),
        check=True, capture_output=True,
    ).stdout.decode().strip()  # fmt: skip
    head = repo.git("rev-parse", "HEAD").strip()
    commit = repo.git("commit-tree", tree, "-p", head, "-m", "dotdot", date="2026-03-03T03:03:03+00:00").strip()
    repo.git("update-ref", "refs/heads/main", commit)


BOMB_LEVELS = 5
"""10**5 paths from a repository of a few kilobytes."""


def _git(repo: Path, *args: str, stdin: bytes | None = None) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], input=stdin, check=True, capture_output=True).stdout.decode()


def make_bomb(root: Path, levels: int = BOMB_LEVELS) -> Path:
    """A bare repository whose head tree lists 10**levels files."""
    repo = root / "bomb.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(repo)], check=True)
    _git(repo, "config", "uploadpack.allowFilter", "true")
    blob = _git(repo, "hash-object", "-w", "--stdin", stdin=b"x = 1\n").strip()
    listing = "".join(f"100644 blob {blob}\tf{index}.py\n" for index in range(10))
    tree = _git(repo, "mktree", stdin=listing.encode()).strip()
    for _ in range(levels - 1):
        listing = "".join(f"040000 tree {tree}\td{index}\n" for index in range(10))
        tree = _git(repo, "mktree", stdin=listing.encode()).strip()
    env = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@a", "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@a"}
    commit = (
        subprocess.run(
            ["git", "-C", str(repo), "commit-tree", "-m", "bomb", tree], check=True, capture_output=True, env=env
        )
        .stdout.decode()
        .strip()
    )
    _git(repo, "update-ref", "refs/heads/main", commit)
    return repo
