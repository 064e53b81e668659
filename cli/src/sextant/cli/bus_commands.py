"""Commands about the bus itself: up, publish, events, schema, asyncapi."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import Annotated

import msgspec
import typer

from sextant.bus import wait_for_stop_signal
from sextant.cli.describe import summarize
from sextant.cli.publishing import build_repo_updated, repo_updated_from_json
from sextant.cli.runtime import open_session
from sextant.cli.tracing_setup import continued_trace
from sextant.contracts import encode_event, event_json_schema, event_name

publish_app = typer.Typer(help="Publish a request event (what CI runs).", no_args_is_help=True)


def register(app: typer.Typer) -> None:
    """Add the bus commands to the app."""
    app.command()(up)
    app.add_typer(publish_app, name="publish")
    app.command()(events)
    app.command()(schema)
    app.command()(asyncapi)


def up() -> None:
    """Run all five services in this process (starting nats-server unless NATS_URL is set).

    Ctrl-C stops everything cleanly; a restart resumes from the durable consumers.
    """
    asyncio.run(_up())


async def _up() -> None:
    env = dict(os.environ)
    async with open_session(env, always_host=True) as session:
        typer.echo(f"sextant is up: NATS at {session.url}, state in {session.home}. Ctrl-C stops it.", err=True)
        await wait_for_stop_signal()
    typer.echo("sextant stopped.", err=True)


@publish_app.command("repo-updated")
def publish_repo_updated(
    url: Annotated[str | None, typer.Argument(help="Repository URL or local path.")] = None,
    *,
    branch: Annotated[str | None, typer.Option(help="Branch (default: the repository's default).")] = None,
    provider: Annotated[str, typer.Option(help="github, gitlab, bitbucket or generic.")] = "generic",
    head_sha: Annotated[str | None, typer.Option(help="Head commit of the branch.")] = None,
    head_commit_date: Annotated[str | None, typer.Option(help="ISO 8601 date of the head commit.")] = None,
    changed: Annotated[
        list[str] | None,
        typer.Option("--changed", help="A changed path (repeat): incremental run."),
    ] = None,
    removed: Annotated[list[str] | None, typer.Option("--removed", help="A removed path (repeat).")] = None,
    force: Annotated[bool, typer.Option(help="Re-index every file even if unchanged.")] = False,
    run_id: Annotated[
        str | None, typer.Option(help="Run id (default: derived from the request when --head-sha is given).")
    ] = None,
    from_json: Annotated[
        Path | None, typer.Option("--from-json", help="Read the request from a JSON file ('-' = stdin).")
    ] = None,
) -> None:
    """Publish a RepoUpdated: the event a CI job sends after a merge."""
    if from_json is not None:
        data = sys.stdin.buffer.read() if str(from_json) == "-" else from_json.read_bytes()
        event = repo_updated_from_json(data)
    elif url:
        event = build_repo_updated(
            url,
            provider=provider,
            branch=branch,
            head_sha=head_sha,
            head_commit_date=head_commit_date,
            changed_paths=list(changed) if changed else None,
            removed_paths=list(removed) if removed else None,
            force=force,
            run_id=run_id,
        )
    else:
        raise typer.BadParameter("give a repository URL/path or --from-json")
    fresh = asyncio.run(_publish(event))
    typer.echo(
        f"published {event_name(type(event))} for {event.repo.repo_key} run {event.run_id}"
        + ("" if fresh else " (duplicate: already in the stream)")
    )


async def _publish(event: msgspec.Struct) -> bool:
    env = dict(os.environ)
    async with open_session(env) as session:
        with continued_trace(env):
            return await session.bus.publish(event)  # type: ignore[arg-type]


def events(
    *,
    follow: Annotated[bool, typer.Option("--follow", "-f", help="Keep printing new events.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON event per line.")] = False,
    subject: Annotated[str, typer.Option(help="Subject filter, e.g. 'sextant.analysis.completed.*'.")] = "sextant.>",
) -> None:
    """Print the event stream: who asked for what, what each stage produced, and when."""
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_events(subject, follow=follow, as_json=as_json))


async def _events(subject: str, *, follow: bool, as_json: bool) -> None:
    async with open_session(dict(os.environ)) as session:
        async for sequence, event, raw in session.bus.read(subject, follow=follow):
            if as_json:
                typer.echo(encode_event(event).decode() if event else json.dumps({"undecodable": raw.subject}))
            elif event is None:
                typer.echo(f"{sequence:>6}  {'?':<24} {raw.subject}  (undecodable)")
            else:
                typer.echo(
                    f"{sequence:>6}  {event.occurred_at:<24} {event_name(type(event)):<19} "
                    f"{event.repo.repo_key}  run={event.run_id[:12]}  {summarize(event)}"
                )


def schema() -> None:
    """Print the JSON Schema of every event (what a subscriber's author reads)."""
    typer.echo(json.dumps(event_json_schema(), indent=2))


def asyncapi(
    out: Annotated[Path | None, typer.Option(help="Write to this file instead of stdout.")] = None,
) -> None:
    """Write the AsyncAPI document of every service's subscriptions, with the event schemas."""
    from sextant.cli.asyncapi_doc import asyncapi_document

    document = json.dumps(asyncapi_document(), indent=2)
    if out is None:
        typer.echo(document)
    else:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(document + "\n")
        typer.echo(f"wrote {out}", err=True)
