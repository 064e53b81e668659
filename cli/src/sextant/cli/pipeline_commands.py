"""Commands that run the pipeline through the bus: index, analyze, show."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path
from typing import Annotated, TypeVar

import typer
from nats.js.errors import NotFoundError

from sextant.cli.publishing import build_repo_updated, normalize_repo_location
from sextant.cli.run_watch import RunFailedError, await_result
from sextant.cli.runtime import open_session
from sextant.cli.tracing_setup import continued_trace
from sextant.contracts import (
    STREAM_NAME,
    AnalysisCompleted,
    ChunksIndexed,
    Event,
    RepoRef,
    ReviewCompleted,
    ReviewRequested,
    encode_event,
    event_id_for,
    new_run_id,
    subject_pattern,
    utc_now_iso,
)

ResultT = TypeVar("ResultT", bound=Event)

RepoArgument = Annotated[str, typer.Argument(help="Repository URL or local path.")]
BranchOption = Annotated[str | None, typer.Option(help="Branch (default: the repository's default).")]
ProviderOption = Annotated[str, typer.Option(help="github, gitlab, bitbucket or generic.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result event as JSON.")]


def register(app: typer.Typer) -> None:
    """Add the pipeline commands to the app."""
    app.command()(index)
    app.command()(analyze)
    app.command()(show)
    app.command()(review)


async def _run_until(request: Event, result_type: type[ResultT], *, quiet: bool) -> ResultT:
    env = dict(os.environ)
    async with open_session(env, host=True) as session:
        where = "the embedded runtime" if session.hosts_services else session.url
        if not quiet:
            typer.echo(f"sextant: run {request.run_id} for {request.repo.repo_key} on {where}", err=True)
        bars = not quiet and sys.stderr.isatty()  # live bars on a terminal; logs and CI get the stage lines
        with continued_trace(env):
            return await await_result(session.bus, request, result_type, show_progress=bars)


def run_to(request: Event, result_type: type[ResultT], *, quiet: bool = False) -> ResultT:
    """Publish ``request`` and wait for its result; a failed run exits with status 1 and its reason."""
    try:
        return asyncio.run(_run_until(request, result_type, quiet=quiet))
    except RunFailedError as failure:
        typer.echo(f"sextant: the run failed: {failure}", err=True)
        raise typer.Exit(1) from None


def index(
    repo: RepoArgument,
    *,
    branch: BranchOption = None,
    provider: ProviderOption = "generic",
    force: Annotated[bool, typer.Option(help="Re-index every file, changed or not.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Index a repository (recency scan, then incremental indexing) and print what changed."""
    request = build_repo_updated(repo, provider=provider, branch=branch, force=force, run_id=new_run_id())
    result = run_to(request, ChunksIndexed, quiet=as_json)
    if as_json:
        typer.echo(encode_event(result).decode())
        return
    typer.echo(f"indexed {result.repo.repo_key} at {result.head_sha or '?'} into {result.collection}")
    for failed in result.failed_files:
        typer.echo(f"  skipped {failed.path}: {failed.reason}")


def analyze(
    repo: RepoArgument,
    *,
    branch: BranchOption = None,
    provider: ProviderOption = "generic",
    out: Annotated[Path | None, typer.Option(help="Also write the Markdown analysis to this file.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Scan, index, select and analyse a repository; print the seven-section analysis."""
    request = build_repo_updated(repo, provider=provider, branch=branch, run_id=new_run_id())
    result = run_to(request, AnalysisCompleted, quiet=as_json)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(result.markdown)
        typer.echo(f"sextant: wrote {out}", err=True)
    typer.echo(encode_event(result).decode() if as_json else result.markdown)


def show(
    repo: RepoArgument,
    *,
    provider: ProviderOption = "generic",
    as_json: JsonOption = False,
) -> None:
    """Print the current analysis of a repository from the stream, without recomputing it."""
    key = RepoRef.for_url(normalize_repo_location(repo), provider=provider).repo_key
    analysis = asyncio.run(_last_analysis(key))
    if analysis is None:
        typer.echo(f"sextant: no analysis of {key} in the stream yet; run `sextant analyze {repo}`", err=True)
        raise typer.Exit(1)
    typer.echo(encode_event(analysis).decode() if as_json else analysis.markdown)


async def _last_analysis(repo_key: str) -> AnalysisCompleted | None:
    async with open_session(dict(os.environ)) as session:
        try:
            raw = await session.bus.js.get_last_msg(STREAM_NAME, subject_pattern(AnalysisCompleted, repo_key))
        except NotFoundError:
            return None
        headers = dict(raw.headers or {})
        event = await session.bus.decode(raw.data or b"", headers)
        return event if isinstance(event, AnalysisCompleted) else None


def review(
    repo: RepoArgument,
    *,
    base: Annotated[str | None, typer.Option(help="Base ref (e.g. main).")] = None,
    head: Annotated[str | None, typer.Option(help="Head ref (e.g. a feature branch).")] = None,
    diff_file: Annotated[
        Path | None, typer.Option("--diff", help="Review this unified diff file instead of refs.")
    ] = None,
    title: Annotated[str, typer.Option(help="Title of the change.")] = "",
    description: Annotated[str, typer.Option(help="Description of the change.")] = "",
    pr: Annotated[int | None, typer.Option(help="Pull request number.")] = None,
    provider: ProviderOption = "generic",
    as_json: JsonOption = False,
) -> None:
    """Review a change (base..head, or a diff file) with recency-aware context; print the review."""
    if diff_file is None and not (base and head):
        raise typer.BadParameter("give --base and --head, or --diff FILE")
    repo_ref = RepoRef.for_url(normalize_repo_location(repo), provider=provider)
    run_id = new_run_id()
    request = ReviewRequested(
        event_id=event_id_for(ReviewRequested, run_id),
        run_id=run_id,
        occurred_at=utc_now_iso(),
        repo=repo_ref,
        pr_number=pr,
        title=title or (f"{base}..{head}" if base else str(diff_file)),
        description=description,
        base_ref=base,
        head_ref=head,
        diff=diff_file.read_text() if diff_file is not None else None,
    )
    result = run_to(request, ReviewCompleted, quiet=as_json)
    typer.echo(encode_event(result).decode() if as_json else result.markdown)
