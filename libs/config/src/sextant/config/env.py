"""Typed reads of environment variables. Unset (or empty) always means the documented default."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TypeVar

DEFAULT_HOME_DIRNAME = ".sextant"
"""Folder (in the working directory) holding the embedded runtime's NATS store, Qdrant and caches."""


_Number = TypeVar("_Number", int, float)


class ConfigError(ValueError):
    """An environment variable holds a value Sextant cannot use; the message names the variable."""


_TRUTHY = frozenset({"1", "true", "yes", "on", "y", "t"})
_FALSY = frozenset({"0", "false", "no", "off", "n", "f"})

PROVIDER_TOKEN_VARIABLES = {
    "github": ("GITHUB_TOKEN", "GH_TOKEN"),
    "gitlab": ("GITLAB_TOKEN",),
    "bitbucket": ("BITBUCKET_TOKEN",),
    "generic": ("GIT_TOKEN",),
}
"""Where each hosting provider's access token is read from (the first one set wins)."""


def env_str(env: Mapping[str, str], name: str, default: str | None = None) -> str | None:
    """A string variable, stripped; empty (or only spaces) counts as unset.

    This is the one place that rule lives: every other typed read goes through it, so a variable
    left blank in an ``.env`` file always means "use the default".

    Args:
        env: Environment variables.
        name: Variable name.
        default: Returned when the variable is unset or blank.

    Returns:
        The value, or ``default``.
    """
    value = env.get(name, "").strip()
    return value or default


def env_flag(env: Mapping[str, str], name: str, *, default: bool = False) -> bool:
    """A boolean variable: 1/true/yes/on are true, 0/false/no/off are false; unset or empty is ``default``.

    Raises:
        ConfigError: for any other value, so a typo never silently flips a feature.
    """
    raw = env_str(env, name)
    if raw is None:
        return default
    value = raw.lower()
    if value in _TRUTHY:
        return True
    if value in _FALSY:
        return False
    raise ConfigError(f"{name}={raw!r} is not a boolean (use true or false)")


def env_float(env: Mapping[str, str], name: str, default: float) -> float:
    """A number variable."""
    return _parsed(env, name, default, float, "a number")


def env_int(env: Mapping[str, str], name: str, default: int) -> int:
    """An integer variable."""
    return _parsed(env, name, default, int, "an integer")


def _parsed(env: Mapping[str, str], name: str, default: _Number, parse: Callable[[str], _Number], noun: str) -> _Number:
    raw = env_str(env, name)
    if raw is None:
        return default
    try:
        return parse(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not {noun}") from None


def sextant_home(env: Mapping[str, str], cwd: Path | None = None) -> Path:
    """Where the embedded runtime keeps its state: ``SEXTANT_HOME`` or ``.sextant/`` in the working dir."""
    configured = env_str(env, "SEXTANT_HOME")
    base = Path(configured) if configured else (cwd or Path.cwd()) / DEFAULT_HOME_DIRNAME
    return base.expanduser().resolve()


def provider_token(env: Mapping[str, str], provider: str) -> str | None:
    """The access token for a hosting provider, from its conventional variable (never from a URL)."""
    for name in PROVIDER_TOKEN_VARIABLES.get(provider, PROVIDER_TOKEN_VARIABLES["generic"]):
        token = env_str(env, name)
        if token:
            return token
    return None


def default_store_path(env: Mapping[str, str]) -> Path:
    """Where the embedded Qdrant engine keeps its data unless QDRANT_PATH says otherwise."""
    return sextant_home(env) / "qdrant"


def mirrors_path(env: Mapping[str, str]) -> Path:
    """Where blob-less git mirrors of indexed repositories are cached between runs."""
    return sextant_home(env) / "mirrors"
