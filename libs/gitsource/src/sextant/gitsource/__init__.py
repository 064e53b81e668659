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
from sextant.gitsource.paths import path_bytes, path_text, text_path
from sextant.gitsource.recency import RecencyScan, describe_scan, incremental_recency, scan_recency
from sextant.gitsource.repo_reference import ALLOW_LOCAL_REPOS, LocalRepositoryRefusedError, source_for_repo
from sextant.gitsource.tree_stream import TreeLimits, TreeTooLargeError

__all__ = [
    "ALLOW_LOCAL_REPOS",
    "BranchNotFoundError",
    "GitCommandError",
    "GitSourceError",
    "GitTimeoutError",
    "GitUnavailableError",
    "LocalRepositoryRefusedError",
    "MirrorState",
    "Provider",
    "RecencyScan",
    "RepoMirror",
    "RepoSource",
    "TreeEntry",
    "TreeLimits",
    "TreeTooLargeError",
    "UnsafeSourceError",
    "describe_scan",
    "git_environment",
    "incremental_recency",
    "path_bytes",
    "path_text",
    "scan_recency",
    "source_for_repo",
    "text_path",
]
