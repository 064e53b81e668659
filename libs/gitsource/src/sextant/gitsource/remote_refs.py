"""What a remote repository advertises, asked without cloning it (``git ls-remote``).

A command checks a repository URL, its branch and the refs it names before it publishes a request,
so a typo or a missing repository is one clear line instead of a failed run.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from sextant.gitsource.access import RepoSource, git_environment, local_path, secrets_of
from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.git_process import run_git

LS_REMOTE_TIMEOUT_SECONDS = 30.0
"""Listing refs is one round trip; the bound covers a slow host, not a clone."""

_COMMIT_ID = re.compile(r"^[0-9a-fA-F]{7,64}$")
_REMOTE_PROBLEM = re.compile(r"^(?:fatal|remote|error): *(.+)$", re.MULTILINE)


class RemoteUnreadableError(GitSourceError):
    """The remote repository could not be listed: it does not exist, needs a token, or is unreachable."""


@dataclass(frozen=True, slots=True)
class RemoteRefs:
    """The refs a remote advertised for the names asked about."""

    head: str | None
    """The commit the remote's HEAD (its default branch) points at; None for an empty repository."""
    refs: frozenset[str]
    """Full names of the advertised refs (``refs/heads/main``, ``refs/tags/v1``, ...)."""

    def has_branch(self, branch: str) -> bool:
        """Whether ``refs/heads/<branch>`` exists."""
        return f"refs/heads/{branch}" in self.refs

    def resolves(self, ref: str) -> bool:
        """Whether a ref as a person types it names something the remote has.

        A commit id cannot be checked without fetching and counts as resolvable.
        """
        if ref == "HEAD":
            return self.head is not None
        if _COMMIT_ID.match(ref):
            return True
        return bool({ref, f"refs/heads/{ref}", f"refs/tags/{ref}"} & self.refs)


def _first_problem(stderr: str) -> str:
    found = _REMOTE_PROBLEM.search(stderr)
    line = found.group(1) if found else (stderr.strip().splitlines() or ["no reason given"])[0]
    return line.strip().rstrip(".")


def list_remote_refs(
    source: RepoSource, names: Sequence[str] = (), *, timeout: float = LS_REMOTE_TIMEOUT_SECONDS
) -> RemoteRefs:
    """List the remote's HEAD and the branches and tags among ``names``, without cloning.

    Args:
        source: A repository reached by URL (https, ssh, file, loopback http); its token is sent as
            a header through the environment, as for a clone.
        names: Branch, tag or ref names to ask about (commit ids are ignored).
        timeout: Seconds for the whole listing.

    Returns:
        What the remote advertised.

    Raises:
        RemoteUnreadableError: one line naming git's reason (never a secret).
        ValueError: the source is a local path (check it in place instead).
    """
    if local_path(source) is not None:
        raise ValueError("list_remote_refs reads a URL; a local path is checked in place")
    patterns = sorted({"HEAD", *(name for name in names if name != "HEAD" and not _COMMIT_ID.match(name))})
    secrets = secrets_of(source)
    try:
        out = run_git(
            ["ls-remote", "--symref", "--", source.url, *patterns],
            env=git_environment(source),
            secrets=secrets,
            timeout=timeout,
        )
    except GitSourceError as error:
        stderr = getattr(error, "stderr", "") or str(error)
        raise RemoteUnreadableError(_first_problem(stderr)) from None
    head: str | None = None
    refs: set[str] = set()
    for line in out.decode("utf-8", "replace").splitlines():
        if line.startswith("ref: "):
            continue  # the symref line names the default branch; its commit follows as HEAD
        sha, _, name = line.partition("\t")
        if name == "HEAD":
            head = sha
        elif name:
            refs.add(name)
    return RemoteRefs(head=head, refs=frozenset(refs))
