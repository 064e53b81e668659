"""Mistakes a person can fix end in one line that says what to do, exit status 2, and no traceback.

Anything else is a bug or an outage: it keeps its traceback. ``--debug`` (or LOG_LEVEL=DEBUG) shows
the traceback of a known mistake too.
"""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Callable

import msgspec
import typer

# typer carries its own copy of click; its usage errors (a missing file, an unknown option) all derive
# from this class, which it does not re-export.
from typer._click.exceptions import ClickException

from sextant.cli.usage_problem import UsageError
from sextant.config import ConfigError
from sextant.publish import RequestError

USAGE_EXIT_STATUS = 2
"""A mistake in how the command was called or configured (the shell's and click's convention)."""
INTERRUPTED_EXIT_STATUS = 130
"""Stopped by Ctrl-C (128 + SIGINT), as shells report it."""


class _Debug:
    on = False


def enable_debug() -> None:
    """Show tracebacks of known mistakes too (``--debug``)."""
    _Debug.on = True


def _nats_message(error: Exception) -> str | None:
    import nats.errors

    if isinstance(error, nats.errors.Error) and "authoriz" in str(error).lower():
        return (
            "NATS refused the credentials: check NATS_USER/NATS_PASSWORD, NATS_TOKEN, NATS_CREDS or "
            "NATS_NKEY for the server NATS_URL names"
        )
    if isinstance(error, nats.errors.NoServersError):
        return (
            "cannot reach the NATS server NATS_URL names: check the address, or unset NATS_URL for the embedded runtime"
        )
    return None


def _qdrant_message(error: Exception) -> str | None:
    import httpx

    module = type(error).__module__
    if isinstance(error, httpx.TransportError) or module.startswith("qdrant_client"):
        return f"cannot use the Qdrant server QDRANT_URL names ({type(error).__name__}): check it is up and reachable"
    return None


def known_mistake(error: BaseException) -> str | None:
    """The one line for an error a person can fix, or None for anything else.

    Args:
        error: What was raised.

    Returns:
        The line to print (without the ``sextant:`` prefix), or None.
    """
    if isinstance(error, UsageError | ConfigError | RequestError):
        return str(error)
    if isinstance(error, msgspec.ValidationError | msgspec.DecodeError):
        return f"the request is not valid JSON of the expected shape: {error}"
    if not isinstance(error, Exception):
        return None
    for describe in _DESCRIBERS:
        message = describe(error)
        if message:
            return message
    return None


def _embedded_message(error: Exception) -> str | None:
    from sextant.bus import NatsServerError, NatsSettingsError
    from sextant.embedding import EmbeddingError
    from sextant.llm import LanguageModelConfigError

    if isinstance(error, NatsServerError | NatsSettingsError | LanguageModelConfigError):
        return str(error)
    if isinstance(error, EmbeddingError) and not error.transient:
        return str(error)
    return None


_DESCRIBERS: tuple[Callable[[Exception], str | None], ...] = (_nats_message, _qdrant_message, _embedded_message)


def run_cli(app: Callable[..., object], *, debug_from_env: bool = False) -> int:
    """Run the click/typer app and turn its outcome into an exit status.

    Args:
        app: The typer app.
        debug_from_env: LOG_LEVEL=DEBUG was set (tracebacks are shown).

    Returns:
        The exit status: 0, the command's own status, 2 for a known mistake, 130 for Ctrl-C.
    """
    try:
        result = app(standalone_mode=False)
    except (typer.Abort, KeyboardInterrupt):
        return INTERRUPTED_EXIT_STATUS
    except ClickException as error:
        error.show()
        return error.exit_code
    except Exception as error:
        message = known_mistake(error)
        if message is None:
            raise
        if _Debug.on or debug_from_env:
            traceback.print_exception(error, file=sys.stderr)
        logging.getLogger("sextant.cli").debug("stopped on a known mistake", exc_info=error)
        print(f"sextant: {message}", file=sys.stderr)  # noqa: T201 — the one line a person reads
        return USAGE_EXIT_STATUS
    return result if isinstance(result, int) else 0
