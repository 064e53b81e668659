"""Reviewer settings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sextant.config import TokenLookup, no_tokens, read_settings, setting
from sextant.gitsource.repo_reference import ALLOW_LOCAL_REPOS

RETRIEVAL_LIMIT = 50
"""Chunks the hybrid search returns for a review (50; see docs/analysis.md, "Review context")."""
QUERY_MAX_CHARS = 4_000
"""Bound on the retrieval query built from the title and the diff."""
REVIEW_MAX_TOKENS = 4_096
"""Output budget of the review model call."""


@dataclass(frozen=True)
class ReviewerSettings:
    """What the reviewer needs; see .env.example."""

    retrieval_limit: int = setting("REVIEW_RETRIEVAL_LIMIT", RETRIEVAL_LIMIT)
    query_max_chars: int = setting("REVIEW_QUERY_MAX_CHARS", QUERY_MAX_CHARS)
    max_tokens: int = setting("REVIEW_MAX_TOKENS", REVIEW_MAX_TOKENS)
    tokens: TokenLookup = field(default=no_tokens, repr=False)
    """Git hosting tokens by provider, for when a diff must be computed from refs."""
    allow_local_repos: bool = setting(ALLOW_LOCAL_REPOS, False)
    """Read repositories named by a local path (the embedded runtime's default)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> ReviewerSettings:
        """Read the settings from environment variables."""
        return read_settings(cls, env)
