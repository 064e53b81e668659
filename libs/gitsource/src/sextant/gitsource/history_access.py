"""Reading a repository's history in place: the git directory, a no-transport environment, its shape.

History look-ups for doc claims read the repository where it lies and never reach a network: the
environment allows no transport at all (`GIT_ALLOW_PROTOCOL` empty), so a partial clone cannot
lazily fetch a missing object and a remote's `uploadpack` setting can never run. Diffs are always
asked for with `--no-ext-diff --no-textconv`, so no driver from the repository's attributes runs.
A blob-less (partial) clone is detected up front, so callers can fall back instead of failing on
the first missing blob.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sextant.gitsource.access import RepoSource, git_environment
from sextant.gitsource.errors import GitCommandError
from sextant.gitsource.git_process import run_git
from sextant.gitsource.local_repository import resolve_local_git_dir
from sextant.gitsource.recency import resolve_commit

DEFAULT_HISTORY_TIMEOUT = 120.0


@dataclass(frozen=True)
class HistoryRepository:
    """A repository opened for history reads: where its objects are and how git must be run."""

    git_dir: Path
    env: dict[str, str]
    head: str
    """The commit every look-up is relative to (full SHA)."""
    partial: bool
    """True for a partial (blob-less) clone: old blobs may be missing and are never fetched."""
    timeout: float = DEFAULT_HISTORY_TIMEOUT

    def git(self, args: list[str], *, stdin: bytes | None = None) -> bytes:
        """Run one git command in this repository and return its output.

        Args:
            args: Arguments after `git`.
            stdin: Bytes for its standard input.

        Returns:
            Standard output.
        """
        return run_git(args, env=self.env, secrets=(), timeout=self.timeout, git_dir=self.git_dir, stdin=stdin)


def in_place_environment(path: Path) -> dict[str, str]:
    """The child environment for reading a local repository in place: hardened, with no transport.

    Args:
        path: The repository folder.

    Returns:
        git_environment's hardening, plus an empty protocol allow-list and no pager.
    """
    env = git_environment(RepoSource(url=str(path)))
    env["GIT_ALLOW_PROTOCOL"] = ""  # a lazy fetch of a missing object fails instead of running a remote
    env["GIT_PAGER"] = "cat"
    env["GIT_NO_REPLACE_OBJECTS"] = "1"  # replace refs would let the repository rewrite what we read
    return env


def open_history(
    path: Path, commit: str | None = None, *, timeout: float = DEFAULT_HISTORY_TIMEOUT
) -> HistoryRepository:
    """Open a local repository (bare or with a work tree) for history reads at a commit.

    Args:
        path: The repository folder (or a bare git directory).
        commit: A commit or ref; None for HEAD.
        timeout: Seconds allowed per git command.

    Returns:
        The opened repository.
    """
    resolved = path.expanduser().resolve()
    env = in_place_environment(resolved)
    git_dir = resolve_local_git_dir(resolved, env=env, timeout=timeout)
    head = resolve_commit(git_dir, commit or "HEAD", env=env, secrets=(), timeout=timeout)
    return HistoryRepository(git_dir, env, head, is_partial_clone(git_dir, env, timeout), timeout)


def is_partial_clone(git_dir: Path, env: dict[str, str], timeout: float) -> bool:
    """Whether the repository is a partial clone (some objects only promised by a remote).

    Args:
        git_dir: The git directory.
        env: Child environment.
        timeout: Seconds allowed.

    Returns:
        True when `extensions.partialClone` is set or a remote is a promisor.
    """
    try:
        out = run_git(
            ["config", "--get-regexp", r"^(extensions\.partialclone|remote\..*\.promisor)$"],
            env=env,
            secrets=(),
            timeout=timeout,
            git_dir=git_dir,
        )
    except GitCommandError:
        return False  # exit 1: no such key
    return any(
        line.split(" ", 1)[-1].strip() not in {"", "false"} for line in out.decode("utf-8", "replace").splitlines()
    )
