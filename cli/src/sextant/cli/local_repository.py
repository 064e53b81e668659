"""Check a local repository, branch or ref before anything is published, so a typo is one clear line."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

from sextant.cli.usage_problem import UsageError

CHECK_TIMEOUT_SECONDS = 30.0
"""A local rev-parse answers in milliseconds; the bound only guards against a stuck filesystem."""


def is_local(location: str) -> bool:
    """Whether a repository location names a folder on this machine (not a URL).

    Args:
        location: What the person typed.

    Returns:
        True for a path.
    """
    return "://" not in location and not location.startswith("git@")


def _git(folder: Path, *args: str) -> bool:
    # The repository is untrusted: no transport (a promisor remote must not fetch), no hooks, no pager.
    env = {**os.environ, "GIT_ALLOW_PROTOCOL": "", "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0"}
    done = subprocess.run(
        ["git", "-C", str(folder), *args],
        env=env,
        capture_output=True,
        check=False,
        timeout=CHECK_TIMEOUT_SECONDS,
        stdin=subprocess.DEVNULL,
    )
    return done.returncode == 0


def check_local_repository(location: str, *, branch: str | None = None, refs: Sequence[str] = ()) -> None:
    """Refuse a local path that is not a git repository, or lacks the branch or refs asked for.

    URLs are not checked here (the services report an unknown remote in their stage line).

    Args:
        location: Repository path or URL.
        branch: A branch that must exist.
        refs: Commits, tags or branches that must resolve.

    Raises:
        UsageError: naming what is missing.
    """
    if not is_local(location):
        return
    folder = Path(location).expanduser()
    if not folder.is_dir():
        raise UsageError(f"no such folder: {location} (give a repository path or URL)")
    if not _git(folder, "rev-parse", "--git-dir"):
        raise UsageError(f"{location} is not a git repository (run `git init` there, or give another path)")
    if branch is not None and not _git(folder, "rev-parse", "--verify", "--quiet", f"refs/heads/{branch}^{{commit}}"):
        raise UsageError(f"{location} has no branch {branch!r} (see `git -C {location} branch`)")
    for ref in refs:
        if not _git(folder, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"):
            raise UsageError(f"{location} has no commit, branch or tag {ref!r}")
