"""Selector settings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sextant.config import read_settings, setting
from sextant.selection import ANALYSIS_LIMIT, SUMMARY_LIMIT


@dataclass(frozen=True)
class SelectorSettings:
    """How many chunks each purpose gets (80 and 40 unless overridden)."""

    analysis_limit: int = setting("SELECT_ANALYSIS_LIMIT", ANALYSIS_LIMIT)
    summary_limit: int = setting("SELECT_SUMMARY_LIMIT", SUMMARY_LIMIT)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> SelectorSettings:
        """Read the settings from environment variables."""
        return read_settings(cls, env)
