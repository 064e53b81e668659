"""Selector settings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sextant.config import env_int
from sextant.selection import ANALYSIS_LIMIT, SUMMARY_LIMIT


@dataclass(frozen=True)
class SelectorSettings:
    """How many chunks each purpose gets (80 and 40 unless overridden)."""

    analysis_limit: int = ANALYSIS_LIMIT
    """SELECT_ANALYSIS_LIMIT."""
    summary_limit: int = SUMMARY_LIMIT
    """SELECT_SUMMARY_LIMIT."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> SelectorSettings:
        """Read the settings from environment variables."""
        return cls(
            analysis_limit=env_int(env, "SELECT_ANALYSIS_LIMIT", ANALYSIS_LIMIT),
            summary_limit=env_int(env, "SELECT_SUMMARY_LIMIT", SUMMARY_LIMIT),
        )
