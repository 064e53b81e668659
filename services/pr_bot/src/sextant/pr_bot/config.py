"""PR bot settings, from environment variables (see .env.example)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sextant.config import env_flag, env_str

GITHUB_API = "https://api.github.com"
GITLAB_API_PATH = "/api/v4"


@dataclass(frozen=True)
class PrBotSettings:
    """Tokens are held here and sent as headers, never printed: the repr hides them."""

    github_token: str | None = field(default=None, repr=False)
    """PR_BOT_GITHUB_TOKEN, else GITHUB_TOKEN: needs pull request and issue write access."""
    gitlab_token: str | None = field(default=None, repr=False)
    """PR_BOT_GITLAB_TOKEN, else GITLAB_TOKEN: needs the api scope."""
    github_api: str = GITHUB_API
    """GITHUB_API_URL (GitHub Enterprise: https://HOST/api/v3)."""
    gitlab_api: str | None = None
    """GITLAB_API_URL; unset = https://<the repository's host>/api/v4."""
    dry_run: bool = False
    """PR_BOT_DRY_RUN: print what would be posted, post nothing."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> PrBotSettings:
        """The settings from environment variables, each named in its field's docstring."""
        return cls(
            github_token=env_str(env, "PR_BOT_GITHUB_TOKEN") or env_str(env, "GITHUB_TOKEN"),
            gitlab_token=env_str(env, "PR_BOT_GITLAB_TOKEN") or env_str(env, "GITLAB_TOKEN"),
            github_api=(env_str(env, "GITHUB_API_URL") or GITHUB_API).rstrip("/"),
            gitlab_api=(env_str(env, "GITLAB_API_URL") or "").rstrip("/") or None,
            dry_run=env_flag(env, "PR_BOT_DRY_RUN", default=False),
        )
