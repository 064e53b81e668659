"""Settings from environment variables: one reading of flags, numbers, paths and provider tokens."""

from sextant.config.env import (
    DEFAULT_HOME_DIRNAME,
    PROVIDER_TOKEN_VARIABLES,
    ConfigError,
    default_store_path,
    env_flag,
    env_float,
    env_int,
    env_str,
    mirrors_path,
    provider_token,
    sextant_home,
)
from sextant.config.redaction import has_userinfo, redacted_url
from sextant.config.settings import read_settings, setting
from sextant.config.tokens import TokenLookup, no_tokens, token_lookup

__all__ = [
    "DEFAULT_HOME_DIRNAME",
    "PROVIDER_TOKEN_VARIABLES",
    "ConfigError",
    "TokenLookup",
    "default_store_path",
    "env_flag",
    "env_float",
    "env_int",
    "env_str",
    "has_userinfo",
    "mirrors_path",
    "no_tokens",
    "provider_token",
    "read_settings",
    "redacted_url",
    "setting",
    "sextant_home",
    "token_lookup",
]
