"""Recency scanner settings, read from the environment once at start-up."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sextant.config import env_flag, env_float, env_str

DEFAULT_SCAN_TIMEOUT_SECONDS = 600.0


@dataclass(frozen=True)
class RecencySettings:
    """What the scanner needs to know; see .env.example."""

    enabled: bool = False
    """INDEX_FILE_RECENCY: off by default (no clone, no payload field), as in the seed."""
    window: str | None = None
    """INDEX_FILE_RECENCY_WINDOW: passed to --shallow-since (e.g. "2 years ago"); None = whole history."""
    timeout_seconds: float = DEFAULT_SCAN_TIMEOUT_SECONDS
    """INDEX_FILE_RECENCY_TIMEOUT_SECONDS: the whole scan's time limit."""
    env: Mapping[str, str] = field(default_factory=dict, repr=False)
    """The environment, for provider tokens (read when a scan needs them; never logged)."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> RecencySettings:
        """Read the settings from environment variables."""
        return cls(
            enabled=env_flag(env, "INDEX_FILE_RECENCY"),
            window=env_str(env, "INDEX_FILE_RECENCY_WINDOW"),
            timeout_seconds=env_float(env, "INDEX_FILE_RECENCY_TIMEOUT_SECONDS", DEFAULT_SCAN_TIMEOUT_SECONDS),
            env=dict(env),
        )
