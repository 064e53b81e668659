"""The ``sextant`` command."""

from __future__ import annotations

import os
import sys
import warnings
from importlib.metadata import PackageNotFoundError, version

import typer

from sextant.cli import (
    bus_commands,
    direct_commands,
    docs_check_command,
    mcp_command,
    pipeline_commands,
    search_commands,
)
from sextant.cli.failures import enable_debug, run_cli
from sextant.cli.tracing_setup import install_tracing
from sextant.config import env_str
from sextant.telemetry import configure_logging

app = typer.Typer(
    name="sextant",
    help=(
        "Sextant tells you what a repository really is today: it indexes code and docs, learns from "
        "git when each file last changed, and writes analyses and reviews that trust code over prose.\n\n"
        "Every command uses NATS_URL when set, else a `sextant up` running in this SEXTANT_HOME, else "
        "it starts the embedded runtime (its own nats-server, embedded Qdrant, local models) for the "
        "duration of the command."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(asked: bool) -> None:
    if asked:
        try:
            typer.echo(f"sextant {version('sextant-cli')}")
        except PackageNotFoundError:  # running from a source tree that was never installed
            typer.echo("sextant (not installed)")
        raise typer.Exit


@app.callback()
def main(
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log what the services do."),
    debug: bool = typer.Option(False, "--debug", help="Show tracebacks, also for mistakes (or LOG_LEVEL=DEBUG)."),
    show_version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", callback=_print_version, is_eager=True
    ),
) -> None:
    """Configure logging and tracing once for every command."""
    del show_version  # handled by its callback
    if debug:
        enable_debug()
    configure_logging(env_str(os.environ, "LOG_LEVEL") or ("DEBUG" if debug else "INFO" if verbose else "WARNING"))
    install_tracing(os.environ)


bus_commands.register(app)
pipeline_commands.register(app)
direct_commands.register(app)
search_commands.register(app)
mcp_command.register(app)
docs_check_command.register(app)


def run() -> None:
    """The ``sextant`` executable: the app, with known mistakes as one line and exit status 2."""
    debug_from_env = (env_str(os.environ, "LOG_LEVEL") or "").upper() == "DEBUG"
    # qdrant-client warns before failing when the server is unreachable; the failure's own line says it.
    warnings.filterwarnings("ignore", message="Failed to obtain server version", category=UserWarning)
    sys.exit(run_cli(app, debug_from_env=debug_from_env))
