"""Git hosting tokens as a lookup: what a handler gets instead of the whole environment."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sextant.config.env import PROVIDER_TOKEN_VARIABLES, provider_token

TokenLookup = Callable[[str], str | None]
"""``provider name -> access token`` (None when no token is configured for it)."""


def token_lookup(env: Mapping[str, str]) -> TokenLookup:
    """A lookup over only the token variables of ``env`` (a copy: later changes are not seen).

    Args:
        env: Environment variables.

    Returns:
        ``provider -> token``; an unknown provider uses the generic ``GIT_TOKEN``.
    """
    names = {name for variables in PROVIDER_TOKEN_VARIABLES.values() for name in variables}
    tokens = {name: env[name] for name in names if name in env}

    def lookup(provider: str) -> str | None:
        return provider_token(tokens, provider)

    return lookup


def no_tokens(provider: str) -> str | None:
    """The lookup of a process that has no git credentials (anonymous access only).

    Args:
        provider: Hosting provider name.

    Returns:
        Always None.
    """
    del provider
    return None
