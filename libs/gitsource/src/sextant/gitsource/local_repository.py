"""Local repositories read in place: found strictly at the given path, never above it."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from sextant.gitsource.errors import GitCommandError, GitSourceError
from sextant.gitsource.git_process import run_git


def resolve_local_git_dir(path: Path, *, env: Mapping[str, str], timeout: float) -> Path:
    """The git directory of a local repository (bare or with a work tree) at exactly ``path``.

    Args:
        path: Folder of the repository.
        env: Child environment.
        timeout: Seconds allowed.

    Returns:
        The absolute git directory.
    """
    if not path.is_dir():
        raise GitSourceError(f"local repository {str(path)!r} does not exist")
    # The ceiling stops git from walking up into an enclosing repository when path is not one.
    bounded = {**env, "GIT_CEILING_DIRECTORIES": str(path.parent)}
    try:
        out = run_git(["rev-parse", "--absolute-git-dir"], env=bounded, secrets=(), timeout=timeout, cwd=path)
    except GitCommandError:
        raise GitSourceError(f"{str(path)!r} is not a git repository") from None
    return Path(out.decode("utf-8", "surrogateescape").strip())
