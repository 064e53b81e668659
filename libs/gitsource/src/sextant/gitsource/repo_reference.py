"""From an event's repository reference to the ``RepoSource`` git reads: one door for every service.

A local path is read in place, on the machine that runs the service. A shared deployment must not
let whoever can publish an event make it read any folder of that machine, so local paths are
accepted only where the operator says so (the embedded runtime and the CLI do).
"""

from __future__ import annotations

from typing import cast

from sextant.contracts import RepoRef
from sextant.gitsource.access import Provider, RepoSource, source_kind
from sextant.gitsource.errors import UnsafeSourceError

ALLOW_LOCAL_REPOS = "SEXTANT_ALLOW_LOCAL_REPOS"
"""Environment variable: true lets a service read a repository named by a local path (off by default)."""


class LocalRepositoryRefusedError(UnsafeSourceError):
    """The reference names a local path, and this service does not accept local paths."""


def source_for_repo(repo: RepoRef, *, token: str | None, allow_local: bool) -> RepoSource:
    """The git source of a repository reference, checked before any git runs.

    Args:
        repo: The reference carried by an event.
        token: The provider's access token, or None.
        allow_local: Whether a local path may be read (``SEXTANT_ALLOW_LOCAL_REPOS``).

    Returns:
        The source to sync or scan.

    Raises:
        LocalRepositoryRefusedError: The reference is a local path and ``allow_local`` is false.
        UnsafeSourceError: The location, branch, provider or token is refused.
    """
    if not allow_local and source_kind(repo.url) == "local":
        raise LocalRepositoryRefusedError(
            f"local repository paths are not accepted here ({ALLOW_LOCAL_REPOS} is off); publish a clone URL"
        )
    return RepoSource(
        url=repo.url,
        branch=repo.branch,
        token=token,
        provider=cast(Provider, repo.provider),  # RepoSource refuses an unknown provider itself
    )
