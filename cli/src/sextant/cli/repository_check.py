"""Check a repository, its branch and refs before anything is published, so a typo is one clear line.

A local path is checked in place; a URL is asked what it advertises (``git ls-remote``, with the
same token a service would send), so an unknown repository, branch or ref stops the command before
a request reaches the stream.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import cast

from sextant.cli.usage_problem import UsageError
from sextant.config import PROVIDER_TOKEN_VARIABLES, provider_token
from sextant.gitsource.access import Provider, RepoSource, git_environment
from sextant.gitsource.errors import (
    GitCommandError,
    GitSourceError,
    GitTimeoutError,
    GitUnavailableError,
    UnsafeSourceError,
)
from sextant.gitsource.git_process import run_git
from sextant.gitsource.local_repository import resolve_local_git_dir
from sextant.gitsource.remote_refs import RemoteUnreadableError, list_remote_refs
from sextant.publish import normalize_repo_location

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


def repository_location(typed: str) -> str:
    """The location every service reads the same way (a path made absolute), refusing an empty one.

    An empty argument would become the current folder, and the command would index whatever
    repository the person happens to stand in.

    Raises:
        UsageError: when nothing was typed.
        CredentialedUrlError: when a URL carries credentials.
    """
    if not typed.strip():
        raise UsageError("the repository is empty: give a repository path or URL")
    return normalize_repo_location(typed)


def local_git(folder: Path, *args: str, timeout: float = CHECK_TIMEOUT_SECONDS) -> bytes | None:
    """Run one read-only git command in a local folder the way every in-place read runs it.

    The folder's repository is untrusted and so is our own environment's reach: git starts with the
    environment gitsource gives a repository read in place (an allow-list of our variables, so no
    provider key, chat token or bus password, and no caller's ``GIT_DIR``; no user or system config;
    no transport at all, so a promisor remote never fetches; hooks, fsmonitor, askpass and credential
    helpers off), and its output is never a terminal, so no pager runs.

    Args:
        folder: Where git runs (it finds the repository there or above, as ``git -C`` does).
        args: Arguments after ``git``.
        timeout: Seconds before git is stopped.

    Returns:
        git's standard output, or None when git exits with an error.

    Raises:
        UsageError: when the folder cannot be named to git (control characters), git is missing or
            it does not answer in time.
    """
    env = _in_place_environment(folder)
    try:
        return run_git(list(args), env=env, secrets=(), timeout=timeout, cwd=folder)
    except GitCommandError:
        return None
    except GitUnavailableError:
        raise UsageError("git is not installed or not on PATH") from None
    except GitTimeoutError:
        raise UsageError(f"git did not answer within {timeout:g} s in {folder}") from None


def _in_place_environment(folder: Path) -> dict[str, str]:
    try:
        return git_environment(RepoSource(url=str(folder.resolve())))
    except UnsafeSourceError as error:
        raise UsageError(f"cannot use the folder {str(folder)!r}: {error}") from None


def _git(folder: Path, *args: str) -> bool:
    return local_git(folder, *args) is not None


def _is_repository_itself(folder: Path) -> bool:
    """Whether the indexer reads a repository at exactly this folder, by the indexer's own rule.

    git alone would look upward and find the repository a subfolder belongs to; the indexer reads
    the folder it is given (``resolve_local_git_dir``: a work tree's top level, a bare repository or
    a git directory), so the check asks that same function.
    """
    resolved = folder.resolve()
    try:
        resolve_local_git_dir(resolved, env=_in_place_environment(folder), timeout=CHECK_TIMEOUT_SECONDS)
    except GitUnavailableError:
        raise UsageError("git is not installed or not on PATH") from None
    except GitTimeoutError:
        raise UsageError(f"git did not answer within {CHECK_TIMEOUT_SECONDS:g} s in {folder}") from None
    except GitSourceError:
        return False
    return True


def _enclosing_repository(folder: Path) -> str | None:
    """The top level (or, inside a git directory, the git directory) git finds above ``folder``."""
    for question in ("--show-toplevel", "--absolute-git-dir"):
        found = local_git(folder, "rev-parse", question)
        if found:
            return os.fsdecode(found).removesuffix("\n")
    return None


def check_repository(
    location: str,
    *,
    provider: str = "generic",
    branch: str | None = None,
    refs: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
) -> None:
    """Refuse a repository that does not exist, or lacks the branch or refs asked for.

    Args:
        location: Repository path or URL.
        provider: Hosting provider of a URL (chooses the token variable).
        branch: A branch that must exist (None: the default branch must have a commit).
        refs: Commits, tags or branches that must resolve.
        env: Where the token is read (the process environment by default).

    Raises:
        UsageError: naming what is missing and what to do.
    """
    if is_local(location):
        check_local_repository(location, branch=branch, refs=refs)
    else:
        _check_remote_repository(location, provider=provider, branch=branch, refs=refs, env=env)


def check_local_repository(location: str, *, branch: str | None = None, refs: Sequence[str] = ()) -> None:
    """Refuse a local path that is not a git repository, or lacks the branch or refs asked for.

    A folder inside a repository is refused too, naming the repository's top level: the indexer
    reads a repository from its top level only, and indexing the whole of it in place of the folder
    typed would quietly change what the analysis is about.

    Args:
        location: Repository path.
        branch: A branch that must exist.
        refs: Commits, tags or branches that must resolve.

    Raises:
        UsageError: naming what is missing.
    """
    if not location.strip():  # Path("") is the current folder: an empty argument is a slip, not a choice
        raise UsageError("the repository is empty: give a repository path or URL")
    folder = Path(location).expanduser()
    if folder.is_file():  # a path to a file in a repository: name the repository to give instead
        top = _enclosing_repository(folder.parent)
        instead = f"give {top}" if top is not None else "give the repository's top-level folder"
        raise UsageError(f"{location} is a file, not a repository folder: {instead}")
    if not folder.is_dir():
        raise UsageError(f"no such folder: {location} (give a repository path or URL)")
    if not _is_repository_itself(folder):
        top = _enclosing_repository(folder)
        if top is not None:
            raise UsageError(
                f"{location} is a folder inside the git repository {top}; Sextant reads a repository from its "
                f"top level: give {top}"
            )
        raise UsageError(f"{location} is not a git repository (run `git init` there, or give another path)")
    if branch is not None and not _git(folder, "rev-parse", "--verify", "--quiet", f"refs/heads/{branch}^{{commit}}"):
        raise UsageError(f"{location} has no branch {branch!r} (see `git -C {location} branch`)")
    for ref in refs:
        if not _git(folder, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"):
            raise UsageError(f"{location} has no commit, branch or tag {ref!r}")


def _check_remote_repository(
    url: str, *, provider: str, branch: str | None, refs: Sequence[str], env: Mapping[str, str] | None
) -> None:
    # Asked with the token a service would send; commit ids cannot be checked without fetching.
    token = provider_token(os.environ if env is None else env, provider)
    try:
        source = RepoSource(url=url, branch=branch, token=token, provider=cast(Provider, provider))
    except UnsafeSourceError as error:  # its message never repeats a secret
        raise UsageError(f"cannot use the repository location: {error}") from None
    names = [*refs, *([branch] if branch else [])]
    try:
        remote = list_remote_refs(source, names)
    except RemoteUnreadableError as error:
        variable = PROVIDER_TOKEN_VARIABLES.get(provider, PROVIDER_TOKEN_VARIABLES["generic"])[0]
        need = f"set {variable} if it is private" if token is None else f"check that {variable} may read it"
        raise UsageError(f"cannot read the repository {url} ({error}): check the URL, or {need}") from None
    if branch is not None and not remote.has_branch(branch):
        raise UsageError(f"{url} has no branch {branch!r} (see `git ls-remote --heads {url}`)")
    if branch is None and remote.head is None:
        raise UsageError(f"{url} has no commits on its default branch (push one, or pass --branch)")
    for ref in refs:
        if not remote.resolves(ref):
            raise UsageError(f"{url} has no branch or tag {ref!r} (see `git ls-remote {url}`)")
