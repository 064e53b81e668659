"""Settings from environment variables: one reading of flags, numbers, paths and provider tokens."""

from sextant.config.env import (
    DEFAULT_HOME_DIRNAME,
    env_flag,
    env_float,
    env_int,
    env_str,
    provider_token,
    sextant_home,
)

__all__ = [
    "DEFAULT_HOME_DIRNAME",
    "env_flag",
    "env_float",
    "env_int",
    "env_str",
    "provider_token",
    "sextant_home",
]
