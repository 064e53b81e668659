"""Safe git access: clones, recency scan, tree listing, blob reads.

Pure library (no bus): services call it through ``asyncio.to_thread``.
"""

from sextant.gitsource.access import Provider, RepoSource, git_environment
from sextant.gitsource.errors import (
    BranchNotFoundError,
    GitCommandError,
    GitSourceError,
    GitTimeoutError,
    GitUnavailableError,
    UnsafeSourceError,
)
from sextant.gitsource.mirror import MirrorState, RepoMirror, TreeEntry
from sextant.gitsource.recency import RecencyScan, describe_scan, incremental_recency, scan_recency

__all__ = [
    "BranchNotFoundError",
    "GitCommandError",
    "GitSourceError",
    "GitTimeoutError",
    "GitUnavailableError",
    "MirrorState",
    "Provider",
    "RecencyScan",
    "RepoMirror",
    "RepoSource",
    "TreeEntry",
    "UnsafeSourceError",
    "describe_scan",
    "git_environment",
    "incremental_recency",
    "scan_recency",
]
