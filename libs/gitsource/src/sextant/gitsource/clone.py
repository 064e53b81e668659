"""Bare, blob-less, single-branch clones: commits and trees only, no checkout, no file contents."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

from sextant.gitsource.access import RepoSource, source_kind
from sextant.gitsource.errors import BranchNotFoundError, GitCommandError, GitSourceError
from sextant.gitsource.git_process import run_git

logger = logging.getLogger(__name__)

# Over file:// the serving side is a local upload-pack that reads only the source repository's own
# config (GIT_CONFIG_* is cleared for local transports), and without uploadpack.allowFilter it
# ignores --filter and sends every blob. This fixed command line turns the filter on for it.
FILE_UPLOAD_PACK = "git -c uploadpack.allowFilter=true upload-pack"

_NO_SHALLOW_COMMITS = "no commits selected for shallow requests"


class WindowBeforeHistoryError(GitSourceError):
    """The window starts after the branch's newest commit: no commit is inside it."""


def transport_options(source: RepoSource) -> list[str]:
    """Extra clone options a source's transport needs.

    Args:
        source: The repository source.

    Returns:
        For file:// URLs, an upload-pack that honours ``--filter`` (also stored as the remote's
        ``uploadpack`` so later fetches and lazy blob fetches use it); nothing otherwise.
    """
    if source_kind(source.url) != "file":
        return []
    return ["--upload-pack", FILE_UPLOAD_PACK, "--config", f"remote.origin.uploadpack={FILE_UPLOAD_PACK}"]


def branch_missing(error: GitCommandError) -> bool:
    """Whether a failed clone or fetch says the requested branch does not exist.

    Args:
        error: The failed command's error.

    Returns:
        True for git's "not found in upstream" / "couldn't find remote ref" messages.
    """
    text = error.stderr.lower()
    return ("remote branch" in text and "not found" in text) or "couldn't find remote ref" in text


def clone_blobless(
    source: RepoSource,
    dest: Path,
    *,
    env: Mapping[str, str],
    secrets: tuple[str, ...],
    timeout: float,
    shallow_since: str | None = None,
    depth: int | None = None,
) -> None:
    """Clone the source's branch into ``dest`` as a bare repository without any blob.

    Args:
        source: The repository (a URL; local paths are read in place, not cloned).
        dest: Folder to create.
        env: Child environment from ``git_environment``.
        secrets: Strings to scrub from errors.
        timeout: Seconds for the whole clone.
        shallow_since: Keep only commits newer than this date (``--shallow-since``).
        depth: Keep only this many commits (``--depth``).
    """
    args = ["clone", "--bare", "--quiet", "--filter=blob:none", "--single-branch", "--no-tags"]
    if source.branch is not None:
        args.append(f"--branch={source.branch}")
    if shallow_since is not None:
        args.append(f"--shallow-since={shallow_since}")
    if depth is not None:
        args.append(f"--depth={depth}")
    args += [*transport_options(source), "--", source.url, str(dest)]
    try:
        run_git(args, env=env, secrets=secrets, timeout=timeout)
    except GitCommandError as error:
        if branch_missing(error):
            raise BranchNotFoundError(f"branch {source.branch!r} does not exist in the repository") from None
        if _NO_SHALLOW_COMMITS in error.stderr:
            raise WindowBeforeHistoryError(f"no commit is newer than {shallow_since!r}") from None
        raise


def deepen_past_boundary(git_dir: Path, *, env: Mapping[str, str], secrets: tuple[str, ...], timeout: float) -> bool:
    """Fetch one more generation behind a shallow clone's boundary (still without blobs).

    After ``--shallow-since`` the oldest commits inside the window are boundary commits whose diff
    git cannot compute (it lists every file as added). One ``--deepen=1`` brings their parents, so
    their real changes count and the new boundary lies outside the window.

    Args:
        git_dir: The shallow bare clone.
        env: Child environment.
        secrets: Strings to scrub from errors.
        timeout: Seconds for the fetch.

    Returns:
        True when deepened; False when the server refused (the boundary rule then stays conservative).
    """
    try:
        run_git(
            ["fetch", "--quiet", "--deepen=1", "--no-tags", "--no-write-fetch-head", "origin"],
            env=env,
            secrets=secrets,
            timeout=timeout,
            git_dir=git_dir,
        )
    except GitCommandError as error:
        logger.info("could not deepen the shallow clone past its boundary: %s", error)
        return False
    return True
