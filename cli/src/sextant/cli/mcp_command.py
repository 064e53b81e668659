"""`sextant mcp`: serve the index to agents over the Model Context Protocol (stdio)."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping

import typer

from sextant.cli.index_access import StoreUnavailableError


def register(app: typer.Typer) -> None:
    """Add `mcp` to the app."""
    app.command(name="mcp")(mcp)


def mcp() -> None:
    """Serve search, symbols, analyses, doc checks, review context and indexing as MCP tools over stdio.

    Standard output carries the protocol; logs go to standard error.
    """
    try:
        asyncio.run(_serve(dict(os.environ)))
    except StoreUnavailableError as error:
        typer.echo(f"sextant: {error}", err=True)
        raise typer.Exit(1) from None


async def _serve(env: Mapping[str, str]) -> None:
    from sextant.cli.mcp_backend import open_backend
    from sextant.cli.mcp_server import build_server

    async with open_backend(env) as backend:
        await build_server(backend).run_stdio_async()
