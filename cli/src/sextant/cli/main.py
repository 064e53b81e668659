"""The ``sextant`` command."""

from __future__ import annotations

import os

import typer

from sextant.cli import (
    bus_commands,
    direct_commands,
    docs_check_command,
    mcp_command,
    pipeline_commands,
    search_commands,
)
from sextant.cli.tracing_setup import install_tracing
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


@app.callback()
def main(verbose: bool = typer.Option(False, "--verbose", "-v", help="Log what the services do.")) -> None:
    """Configure logging once for every command."""
    configure_logging(os.environ.get("LOG_LEVEL") or ("INFO" if verbose else "WARNING"))
    install_tracing(os.environ)


bus_commands.register(app)
pipeline_commands.register(app)
direct_commands.register(app)
search_commands.register(app)
mcp_command.register(app)
docs_check_command.register(app)
