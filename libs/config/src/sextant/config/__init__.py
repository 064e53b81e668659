"""Settings from environment variables: one reading of flags, numbers, paths and provider tokens
(and the lock-file and private-folder rules the runtime, the bus and the store share)."""

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
from sextant.config.lock_files import try_lock_file
from sextant.config.private_folders import PRIVATE_FOLDER_MODE, PrivateFolderError, private_folder
from sextant.config.redaction import has_userinfo, redacted_url
from sextant.config.settings import read_settings, setting
from sextant.config.tokens import TokenLookup, no_tokens, token_lookup

__all__ = [
    "DEFAULT_HOME_DIRNAME",
    "PRIVATE_FOLDER_MODE",
    "PROVIDER_TOKEN_VARIABLES",
    "ConfigError",
    "PrivateFolderError",
    "TokenLookup",
    "default_store_path",
    "env_flag",
    "env_float",
    "env_int",
    "env_str",
    "has_userinfo",
    "mirrors_path",
    "no_tokens",
    "private_folder",
    "provider_token",
    "read_settings",
    "redacted_url",
    "setting",
    "sextant_home",
    "token_lookup",
    "try_lock_file",
]
