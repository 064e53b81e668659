"""`sextant search` and `sextant symbol`: ask the index directly, without the bus."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import msgspec
import typer

from sextant.chunkstore import ChunkStore
from sextant.cli.index_access import (
    StoreUnavailableError,
    open_index,
    repo_keys_for,
    searcher_for,
    symbol_finder_for,
)
from sextant.cli.repository_check import check_local_repository, is_local, repository_location
from sextant.cli.search_render import outcome_lines, symbol_lines
from sextant.embedding import DenseEmbedder
from sextant.search import DEFAULT_RESULT_LIMIT, SearchRequest, SymbolReport

ReposArgument = Annotated[
    list[str] | None, typer.Argument(help="Repositories (URLs or paths); default: the one around this folder.")
]
ProviderOption = Annotated[str, typer.Option(help="github, gitlab, bitbucket or generic (for URL repositories).")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result as JSON.")]


def register(app: typer.Typer) -> None:
    """Add `search` and `symbol` to the app."""
    app.command()(search)
    app.command()(symbol)


def search(
    query: Annotated[str, typer.Argument(help="Words, an identifier, or a question.")],
    repos: ReposArgument = None,
    *,
    kind: Annotated[str | None, typer.Option(help="Only code or only doc chunks.")] = None,
    path: Annotated[str | None, typer.Option("--path", help="Only paths matching this glob, e.g. 'src/*.py'.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=200, help="How many hits.")] = DEFAULT_RESULT_LIMIT,
    provider: ProviderOption = "generic",
    as_json: JsonOption = False,
) -> None:
    """Search indexed code and docs: hybrid (sparse only while dense vectors are incomplete), with ages."""
    if kind not in (None, "code", "doc"):
        raise typer.BadParameter("--kind is code or doc")
    keys = _checked_repo_keys(repos or [], provider)
    with _opened_index() as (store, embedder):
        request = SearchRequest(query=query, repo_keys=keys, kind=kind, path_glob=path, limit=limit)
        outcome = asyncio.run(searcher_for(store, embedder).search(request))
    typer.echo(msgspec.json.encode(outcome).decode() if as_json else "\n".join(outcome_lines(outcome, len(keys))))


def symbol(
    name: Annotated[str, typer.Argument(help="Symbol name (exact; symbols it prefixes are listed too).")],
    repos: ReposArgument = None,
    *,
    usages: Annotated[bool, typer.Option("--usages", help="Also list where the name is used.")] = False,
    provider: ProviderOption = "generic",
    as_json: JsonOption = False,
) -> None:
    """Find where a symbol is defined (and, with --usages, used), with ages."""
    keys = _checked_repo_keys(repos or [], provider)
    with _opened_index() as (store, _embedder):
        report = asyncio.run(_symbol_report(store, keys, name, usages=usages))
    if as_json:
        typer.echo(msgspec.json.encode(report).decode())
        return
    typer.echo("\n".join(symbol_lines(report, len(keys))))
    if not report.definitions and not report.prefix_matches and not report.usages:
        raise typer.Exit(1)


@contextmanager
def _opened_index() -> Iterator[tuple[ChunkStore, DenseEmbedder]]:
    """The local index's store and embedder, closed afterwards; an unreachable store ends the command."""
    try:
        store, embedder = open_index(os.environ)
    except StoreUnavailableError as error:
        typer.echo(f"sextant: {error}", err=True)
        raise typer.Exit(1) from None
    try:
        yield store, embedder
    finally:
        store.close()


def _checked_repo_keys(repos: list[str], provider: str) -> list[str]:
    """The repos' keys; a local path that is not a git repository is a mistake (one line, exit 2)."""
    for repo in repos:
        if is_local(repo):
            check_local_repository(repository_location(repo))
    return repo_keys_for(repos, provider)


async def _symbol_report(store: ChunkStore, keys: list[str], name: str, *, usages: bool) -> SymbolReport:
    finder = symbol_finder_for(store)
    report = await finder.definitions(keys, name)
    if usages:
        report = msgspec.structs.replace(report, usages=await finder.usages(keys, name))
    return report
