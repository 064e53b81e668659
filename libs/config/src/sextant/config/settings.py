"""Settings dataclasses whose fields name their environment variable: one reader for all of them.

A field declared ``retrieval_limit: int = setting("REVIEW_RETRIEVAL_LIMIT", 50)`` is read from that
variable by its default's type (bool, int, float or str; unset or empty is the default, anything
unreadable a ``ConfigError`` naming the variable). Fields without a variable keep their default or
take what the caller computed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, TypeVar

from sextant.config.env import env_flag, env_float, env_int, env_str

T = TypeVar("T")
S = TypeVar("S")

_VARIABLE = "sextant.env_variable"


def setting(variable: str, default: T) -> T:
    """A dataclass field read from ``variable``, ``default`` when it is unset or empty.

    Args:
        variable: The environment variable's name.
        default: The value without it (its type decides how the variable is read).

    Returns:
        The field (typed as its value, for the type checker).
    """
    field: T = dataclasses.field(default=default, metadata={_VARIABLE: variable})
    return field


def read_settings(cls: type[S], env: Mapping[str, str], **computed: Any) -> S:
    """An instance of a settings dataclass, each ``setting`` field read from its variable.

    Args:
        cls: The dataclass.
        env: Environment variables.
        **computed: Values for fields the caller builds itself (they win over the environment).

    Returns:
        The settings.
    """
    values: dict[str, Any] = {}
    for field in dataclasses.fields(cls):  # type: ignore[arg-type]
        variable = field.metadata.get(_VARIABLE)
        if variable is not None and field.name not in computed:
            values[field.name] = _read(env, variable, field.default)
    return cls(**values, **computed)


def _read(env: Mapping[str, str], variable: str, default: object) -> object:
    if isinstance(default, bool):
        return env_flag(env, variable, default=default)
    if isinstance(default, int):
        return env_int(env, variable, default)
    if isinstance(default, float):
        return env_float(env, variable, default)
    if isinstance(default, str):
        return env_str(env, variable, default)
    raise TypeError(f"no reader for a setting whose default is {type(default).__name__}")
