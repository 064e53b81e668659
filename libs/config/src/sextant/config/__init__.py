"""Settings from environment variables: one reading of flags, numbers, paths and provider tokens."""

from sextant.config.env import (
    DEFAULT_HOME_DIRNAME,
    default_store_path,
    env_flag,
    env_float,
    env_int,
    env_str,
    mirrors_path,
    provider_token,
    sextant_home,
)

__all__ = [
    "DEFAULT_HOME_DIRNAME",
    "default_store_path",
    "env_flag",
    "env_float",
    "env_int",
    "env_str",
    "mirrors_path",
    "provider_token",
    "sextant_home",
]
