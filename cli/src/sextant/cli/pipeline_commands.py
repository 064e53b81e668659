"""Commands that run the pipeline through the bus: index, analyze, show."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Annotated, Protocol, TypeVar

import typer

from sextant.analyzer.previous_outputs import StreamOutputs
from sextant.bus import await_events
from sextant.cli.analyze_revision import NO_WAIT_REVISION_NOTE, FetchFollows, RevisionWatch
from sextant.cli.describe import skipped_files
from sextant.cli.output_origin import origin_line
from sextant.cli.progress_lines import ProgressLines
from sextant.cli.repository_check import check_local_repository, check_repository, is_local, repository_location
from sextant.cli.run_watch import RUN_QUIET_SECONDS, RunFailedError, await_result, print_stage
from sextant.cli.runtime import open_session
from sextant.cli.tracing_setup import continued_trace
from sextant.contracts import (
    AnalysisCompleted,
    AnyEvent,
    ChunksEmbedded,
    ChunksIndexed,
    Event,
    RepoRef,
    ReviewCompleted,
    ReviewRequested,
    SummaryCompleted,
    encode_event,
    event_id_for,
    new_run_id,
    utc_now_iso,
)
from sextant.publish import build_repo_updated

ResultT = TypeVar("ResultT", bound=Event)

RepoArgument = Annotated[str, typer.Argument(help="Repository URL or local path.")]
BranchOption = Annotated[str | None, typer.Option(help="Branch (default: the repository's default).")]
ProviderOption = Annotated[str, typer.Option(help="github, gitlab, bitbucket or generic.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print the result event as JSON.")]


class FollowUp(Protocol):
    """More events a command waits for after its result, chosen from the run's events heard by then."""

    def wanted(self, heard: Sequence[AnyEvent]) -> tuple[type[Event], ...]:
        """The further events to wait for."""
        ...

    def on_event(self, event: AnyEvent) -> None:
        """Hear one event of the run after the result."""
        ...


TICK_SECONDS = 1.0
"""How often the stage lines look whether the run went quiet (they speak after 10 s of it)."""


def register(app: typer.Typer) -> None:
    """Add the pipeline commands to the app."""
    app.command()(index)
    app.command()(analyze)
    app.command()(show)
    app.command()(review)


async def _run_until(
    request: Event,
    result_type: type[ResultT],
    *,
    quiet: bool,
    then: Sequence[type[Event]] = (),
    on_result: Callable[[ResultT], None] | None = None,
    follow_up: FollowUp | None = None,
) -> ResultT:
    env = dict(os.environ)
    async with open_session(env, host=True) as session:
        where = "the embedded runtime" if session.hosts_services else session.url
        if not quiet:
            typer.echo(f"sextant: run {request.run_id} for {request.repo.repo_key} on {where}", err=True)
        bars = not quiet and sys.stderr.isatty()  # live bars on a terminal; logs and CI get the stage lines
        with continued_trace(env):
            after = await session.bus.last_sequence()
            lines = ProgressLines(echo=_silent) if quiet else ProgressLines()  # used when no bars are drawn

            heard_under_bars: list[AnyEvent] = []
            heard: list[AnyEvent] = []

            def on_stage(event: AnyEvent) -> None:
                heard.append(event)
                print_stage(event)
                if bars:  # a line of ours would be drawn over by the live bars: the lines hear it afterwards
                    heard_under_bars.append(event)
                else:
                    lines.heard(event)

            async with _ticking(lines, bars=bars):
                result = await await_result(
                    session.bus,
                    request,
                    result_type,
                    on_event=on_stage,
                    show_progress=bars,
                    progress_lines=lines.on_progress,
                )
            if on_result is not None:
                on_result(result)  # the person reads the result while the run's later events finish
            for event in heard_under_bars:
                lines.heard(event)
            wanted = [*then, *(follow_up.wanted(heard) if follow_up is not None else ())]

            def on_later(event: AnyEvent) -> None:
                lines.on_event(event)
                if follow_up is not None:
                    follow_up.on_event(event)

            if wanted:  # e.g. the summary, the dense vectors: finished in this run, not by the next start
                async with _ticking(lines, bars=False):  # after the result, lines even on a terminal
                    await await_events(
                        session.bus,
                        result,
                        wanted,
                        after=after,
                        on_event=on_later,
                        on_progress=lines.on_progress,
                        quiet_seconds=RUN_QUIET_SECONDS,
                    )
            return result


@contextlib.asynccontextmanager
async def _ticking(lines: ProgressLines, *, bars: bool) -> AsyncIterator[None]:
    """Keep the stage lines from going quiet while the run works (bars show their own elapsed time)."""
    if bars:
        yield
        return

    async def tick() -> None:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            lines.tick()

    ticker = asyncio.create_task(tick())
    try:
        yield
    finally:
        ticker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ticker


def _silent(line: str) -> None:
    del line


def run_to(
    request: Event,
    result_type: type[ResultT],
    *,
    quiet: bool = False,
    then: Sequence[type[Event]] = (),
    on_result: Callable[[ResultT], None] | None = None,
    follow_up: FollowUp | None = None,
) -> ResultT:
    """Publish ``request`` and wait for its result, then for each of ``then``'s events of the run.

    ``on_result`` sees the result as soon as it arrives, before the later events; ``follow_up`` may
    add events to wait for, from what the run said by then, and hears the later events. A failed run
    exits with status 1 and its reason.
    """
    try:
        return asyncio.run(
            _run_until(request, result_type, quiet=quiet, then=then, on_result=on_result, follow_up=follow_up)
        )
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
    no_wait: Annotated[
        bool, typer.Option("--no-wait", help="Return once the index result is printed; dense vectors follow later.")
    ] = False,
) -> None:
    """Index a repository (recency scan, then incremental indexing) and print what changed.

    The result is printed the moment the payloads are stored (selection and analysis need nothing
    more); the command then waits for the dense vectors review and search use (unless ``--no-wait``),
    for as long as the embedder keeps reporting progress.
    """
    check_repository(repository_location(repo), provider=provider, branch=branch)
    request = build_repo_updated(repo, provider=provider, branch=branch, force=force, run_id=new_run_id())

    def print_index(result: ChunksIndexed) -> None:
        if as_json:
            typer.echo(encode_event(result).decode())
        else:
            typer.echo(f"indexed {result.repo.repo_key} at {result.head_sha or '?'} into {result.collection}")
            for failed in result.failed_files:
                typer.echo(f"  failed {failed.path}: {failed.reason}")
            if result.skipped:
                typer.echo(f"  not indexed: {skipped_files(result)}")
        sys.stdout.flush()

    run_to(request, ChunksIndexed, quiet=as_json, then=() if no_wait else (ChunksEmbedded,), on_result=print_index)
    _say_vectors_follow(no_wait=no_wait, quiet=as_json)


def analyze(
    repo: RepoArgument,
    *,
    branch: BranchOption = None,
    provider: ProviderOption = "generic",
    out: Annotated[Path | None, typer.Option(help="Also write the Markdown analysis to this file.")] = None,
    as_json: JsonOption = False,
    no_wait: Annotated[
        bool, typer.Option("--no-wait", help="Return once the analysis is printed; dense vectors follow later.")
    ] = False,
) -> None:
    """Scan, index, select and analyse a repository; print the seven-section analysis.

    The analysis needs no dense vectors, so it is printed the moment it is ready; the command then
    waits for the run's summary and for the vectors review and search use (unless ``--no-wait``),
    and, when a first run's history fetch follows its indexing, says what judging the doc claims
    again with that history changed (see ``analyze_revision``).
    """
    check_repository(repository_location(repo), provider=provider, branch=branch)
    request = build_repo_updated(repo, provider=provider, branch=branch, run_id=new_run_id())

    def print_analysis(result: AnalysisCompleted) -> None:
        if result.unchanged_since and not as_json:
            typer.echo(f"sextant: inputs unchanged: this analysis stands since {result.unchanged_since}", err=True)
        if out is not None:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(result.markdown)
            typer.echo(f"sextant: wrote {out}", err=True)
        typer.echo(encode_event(result).decode() if as_json else result.markdown)
        sys.stdout.flush()

    later: tuple[type[Event], ...] = (SummaryCompleted,) if no_wait else (SummaryCompleted, ChunksEmbedded)
    fetch = FetchFollows()
    revision = fetch if no_wait else RevisionWatch(out=out, quiet=as_json)
    run_to(request, AnalysisCompleted, quiet=as_json, then=later, on_result=print_analysis, follow_up=revision)
    _say_vectors_follow(no_wait=no_wait, quiet=as_json)
    if fetch.follows and not as_json:
        typer.echo(f"sextant: {NO_WAIT_REVISION_NOTE}", err=True)


def _say_vectors_follow(*, no_wait: bool, quiet: bool) -> None:
    if no_wait and not quiet:
        typer.echo(
            "sextant: --no-wait: dense vectors not yet written are finished by the next run or `sextant up`", err=True
        )


def show(
    repo: RepoArgument,
    *,
    provider: ProviderOption = "generic",
    as_json: JsonOption = False,
    summary: Annotated[bool, typer.Option("--summary", help="Print the current summary instead.")] = False,
) -> None:
    """Print the current analysis (or summary) of a repository from the stream, without recomputing it."""
    location = repository_location(repo)
    if is_local(location):  # a mistyped path is a mistake; a URL not analysed yet just has no analysis
        check_local_repository(location)
    key = RepoRef.for_url(location, provider=provider).repo_key
    output = asyncio.run(_last_output(key, summary=summary))
    if output is None:
        what = "summary" if summary else "analysis"
        typer.echo(f"sextant: no {what} of {key} in the stream yet; run `sextant analyze {repo}`", err=True)
        raise typer.Exit(1)
    if as_json:
        typer.echo(encode_event(output).decode())
        return
    typer.echo(f"sextant: {origin_line(output)}", err=True)
    text = output.markdown if isinstance(output, AnalysisCompleted) else output.markdown or output.summary
    typer.echo(text)


async def _last_output(repo_key: str, *, summary: bool) -> AnalysisCompleted | SummaryCompleted | None:
    async with open_session(dict(os.environ)) as session:
        outputs = StreamOutputs(session.bus)
        return await (outputs.last_summary(repo_key) if summary else outputs.last_analysis(repo_key))


def review(
    repo: RepoArgument,
    *,
    base: Annotated[str | None, typer.Option(help="Base ref (e.g. main).")] = None,
    head: Annotated[str | None, typer.Option(help="Head ref (e.g. a feature branch).")] = None,
    diff_file: Annotated[
        Path | None,
        typer.Option("--diff", help="Review this unified diff file instead of refs.", exists=True, dir_okay=False),
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
    location = repository_location(repo)  # refuses a URL with credentials before anything is sent
    check_repository(location, provider=provider, refs=[ref for ref in (base, head) if ref and diff_file is None])
    repo_ref = RepoRef.for_url(location, provider=provider)
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
