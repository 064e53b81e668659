"""Commands that run one piece directly, without the bus: recency, select."""

from __future__ import annotations

import json
import os
from typing import Annotated

import msgspec
import typer

from sextant.cli.repository_check import check_local_repository, check_repository, is_local, repository_location
from sextant.config import provider_token
from sextant.contracts import RepoRef
from sextant.gitsource.access import Provider
from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.recency import describe_scan, scan_recency
from sextant.gitsource.repo_reference import source_for_repo
from sextant.selection import ANALYSIS_LIMIT, select_analysis_chunks

RepoArgument = Annotated[str, typer.Argument(help="Repository URL or local path.")]
ProviderOption = Annotated[str, typer.Option(help="github, gitlab, bitbucket or generic.")]


def register(app: typer.Typer) -> None:
    """Add the direct commands to the app."""
    app.command()(recency)
    app.command()(select)


def recency(
    repo: RepoArgument,
    *,
    branch: Annotated[str | None, typer.Option(help="Branch (default: the default branch).")] = None,
    window: Annotated[str | None, typer.Option(help="History window, e.g. '2 years ago'.")] = None,
    provider: ProviderOption = "generic",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object: path → date or null.")] = False,
) -> None:
    """Scan git history for each file's last commit date (prints the map; a summary on stderr)."""
    try:
        location = repository_location(repo)
        check_repository(location, provider=_provider(provider), branch=branch)
        ref = RepoRef.for_url(location, provider=_provider(provider), branch=branch)
        # The CLI reads the user's own machine: a local path is what it is for.
        source = source_for_repo(ref, token=provider_token(os.environ, provider), allow_local=True)
        scan = scan_recency(source, window=window)
    except GitSourceError as error:
        typer.echo(f"sextant: recency scan failed: {error}", err=True)
        raise typer.Exit(1) from None
    if as_json:
        typer.echo(json.dumps(scan.dates, ensure_ascii=False, sort_keys=True))
    else:
        for path, date in sorted(scan.dates.items()):
            typer.echo(f"{date or 'unknown (older than the window)':<26} {path}")
    typer.echo(describe_scan(scan), err=True)


def select(
    repo: RepoArgument,
    *,
    limit: Annotated[int, typer.Option(help="How many chunks (analysis 80, summary 40).")] = ANALYSIS_LIMIT,
    provider: ProviderOption = "generic",
    as_json: Annotated[bool, typer.Option("--json", help="Print the selection as JSON.")] = False,
) -> None:
    """Show which chunks an analysis would read, and why each was picked (from the current index)."""
    from sextant.chunkstore.model_store import store_for_model
    from sextant.embedding import embedder_from_env

    location = repository_location(repo)
    if is_local(location):
        check_local_repository(location)
    key = RepoRef.for_url(location, provider=provider).repo_key
    try:
        store = store_for_model(os.environ, embedder_from_env(os.environ))
    except Exception as error:  # qdrant-edge raises a bare Exception when another process holds the folder
        typer.echo(f"sextant: cannot open the chunk store ({error}); is `sextant up` holding it?", err=True)
        raise typer.Exit(1) from None
    try:
        selection = select_analysis_chunks(store, key, limit)
    finally:
        store.close()
    if as_json:
        chunks = [{k: v for k, v in msgspec.structs.asdict(chunk).items() if k != "text"} for chunk in selection.chunks]
        typer.echo(json.dumps({"chunks": chunks, "median_code": selection.median_code}, indent=2))
        return
    if not selection.chunks:
        typer.echo(f"sextant: nothing indexed for {key}; run `sextant index {repo}` first", err=True)
        raise typer.Exit(1)
    for chunk in selection.chunks:
        date = (chunk.last_modified_at or "undated")[:10]
        where = f"{chunk.path}:{chunk.start_line}-{chunk.end_line}"
        typer.echo(f"{chunk.reason:<5} {chunk.kind:<5} {date:<10} {where}  {chunk.symbol or ''}")
    median = selection.median_code or "unknown"
    typer.echo(f"{selection.picked} of {selection.chunks_seen} chunks; median code date {median}")


def _provider(name: str) -> Provider:
    if name not in ("github", "gitlab", "bitbucket", "generic"):
        raise typer.BadParameter(f"unknown provider {name!r}")
    return name  # type: ignore[return-value]  # checked just above
