"""Recency scanner settings, read from the environment once at start-up."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sextant.config import TokenLookup, env_flag, env_float, env_int, env_str, no_tokens
from sextant.gitsource.repo_reference import ALLOW_LOCAL_REPOS
from sextant.gitsource.tree_stream import DEFAULT_MAX_TREE_BYTES, DEFAULT_MAX_TREE_ENTRIES, TreeLimits

DEFAULT_SCAN_TIMEOUT_SECONDS = 600.0


@dataclass(frozen=True)
class RecencySettings:
    """What the scanner needs to know; see .env.example."""

    enabled: bool = True
    """INDEX_FILE_RECENCY: on unless set to false (then no clone and no date in the payload). File
    dates are what Sextant is for, and a local repository is read in place at no network cost."""
    window: str | None = None
    """INDEX_FILE_RECENCY_WINDOW: passed to --shallow-since (e.g. "2 years ago"); None = whole history."""
    timeout_seconds: float = DEFAULT_SCAN_TIMEOUT_SECONDS
    """INDEX_FILE_RECENCY_TIMEOUT_SECONDS: the whole scan's time limit."""
    tokens: TokenLookup = field(default=no_tokens, repr=False)
    """Git hosting tokens by provider (read when a scan needs one; never logged)."""
    tree_limits: TreeLimits = field(default_factory=TreeLimits)
    """INDEX_MAX_TREE_ENTRIES / INDEX_MAX_TREE_BYTES: the same caps as the indexer's tree listing."""
    allow_local_repos: bool = False
    """SEXTANT_ALLOW_LOCAL_REPOS: read repositories named by a local path (the embedded runtime's default)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> RecencySettings:
        """Read the settings from environment variables (tokens come from the adapters, not from here).

        Args:
            env: Environment variables.

        Returns:
            The settings, with no git tokens.
        """
        return cls(
            enabled=env_flag(env, "INDEX_FILE_RECENCY", default=True),
            window=env_str(env, "INDEX_FILE_RECENCY_WINDOW"),
            timeout_seconds=env_float(env, "INDEX_FILE_RECENCY_TIMEOUT_SECONDS", DEFAULT_SCAN_TIMEOUT_SECONDS),
            tree_limits=TreeLimits(
                max_entries=env_int(env, "INDEX_MAX_TREE_ENTRIES", DEFAULT_MAX_TREE_ENTRIES),
                max_bytes=env_int(env, "INDEX_MAX_TREE_BYTES", DEFAULT_MAX_TREE_BYTES),
            ),
            allow_local_repos=env_flag(env, ALLOW_LOCAL_REPOS),
        )
