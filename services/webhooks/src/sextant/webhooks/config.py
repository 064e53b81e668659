"""Webhook settings, from environment variables (see .env.example)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from sextant.config import env_int, env_str

DEFAULT_MAX_BODY_BYTES = 2 * 1024 * 1024
"""Largest hook body accepted; larger ones are refused before they are read whole (413)."""
DEFAULT_PORT = 8090


@dataclass(frozen=True)
class WebhookSettings:
    """Secrets are held here and compared, never printed: the repr hides them."""

    github_secret: str | None = field(default=None, repr=False)
    """WEBHOOK_GITHUB_SECRET: the HMAC key GitHub signs deliveries with; unset = GitHub hooks refused."""
    gitlab_token: str | None = field(default=None, repr=False)
    """WEBHOOK_GITLAB_TOKEN: the secret token GitLab sends; unset = GitLab hooks refused."""
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES
    """WEBHOOK_MAX_BODY_BYTES."""
    host: str = "127.0.0.1"
    """WEBHOOK_HOST (0.0.0.0 in a container)."""
    port: int = DEFAULT_PORT
    """WEBHOOK_PORT."""

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> WebhookSettings:
        """The settings from environment variables, each named in its field's docstring."""
        return cls(
            github_secret=env_str(env, "WEBHOOK_GITHUB_SECRET"),
            gitlab_token=env_str(env, "WEBHOOK_GITLAB_TOKEN"),
            max_body_bytes=env_int(env, "WEBHOOK_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES),
            host=env_str(env, "WEBHOOK_HOST", "127.0.0.1") or "127.0.0.1",
            port=env_int(env, "WEBHOOK_PORT", DEFAULT_PORT),
        )
