"""Commands about the bus itself: up, publish, events, schema, asyncapi."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer
from nats.aio.msg import Msg

from sextant.bus import wait_for_stop_signal
from sextant.bus.handback import handed_back_by
from sextant.cli.describe import summarize
from sextant.cli.runtime import open_session
from sextant.cli.tracing_setup import continued_trace
from sextant.cli.usage_problem import UsageError
from sextant.config import env_str
from sextant.contracts import Event, encode_event, event_json_schema, event_name
from sextant.publish import RequestError, fitting_request, repo_updated_parser, request_from_arguments
from sextant.publish.main import dry_run_description

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


@publish_app.command(
    "repo-updated",
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []},
    add_help_option=False,
)
def publish_repo_updated(ctx: typer.Context) -> None:
    """Publish a RepoUpdated: the event a CI job sends after a push (flags: --help).

    The flags are the CI publisher's (``sextant-publish repo-updated``), parsed by the same code.
    """
    arguments = repo_updated_parser("sextant publish repo-updated").parse_args(ctx.args)
    try:
        event, widened = fitting_request(request_from_arguments(arguments))
    except RequestError as error:
        raise UsageError(str(error)) from None
    if arguments.dry_run:
        typer.echo(dry_run_description(event))
        return
    fresh = asyncio.run(_publish(event))
    note = " (sent as a full run: the path lists were too large for one message)" if widened else ""
    typer.echo(
        f"published {event_name(type(event))} for {event.repo.repo_key} run {event.run_id}{note}"
        + ("" if fresh else " (duplicate: already in the stream)")
    )


def running_unattended(env: dict[str, str]) -> bool:
    """Whether this looks like CI (``CI`` set, or no terminal on standard input).

    Args:
        env: The environment.

    Returns:
        True when nobody would notice an event going into a throwaway embedded store.
    """
    ci = env_str(env, "CI")
    return (ci is not None and ci.lower() not in {"0", "false", "no"}) or not sys.stdin.isatty()


async def _publish(event: Event) -> bool:
    env = dict(os.environ)
    async with open_session(env, embedded=not running_unattended(env)) as session:
        if session.embedded:
            typer.echo(
                f"sextant: no NATS_URL and no `sextant up` here: stored in the embedded stream of {session.home}; "
                "`sextant up` there will process it",
                err=True,
            )
        with continued_trace(env):
            return await session.bus.publish(event)


def events(
    *,
    follow: Annotated[bool, typer.Option("--follow", "-f", help="Keep printing new events.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON event per line.")] = False,
    subject: Annotated[str, typer.Option(help="Subject filter, e.g. 'sextant.analysis.completed.*'.")] = "sextant.>",
) -> None:
    """Print the event stream: who asked for what, what each stage produced, and when."""
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
                    f"{event.repo.repo_key}  run={event.run_id[:12]}  {summarize(event)}{_copy_note(raw)}"
                )


def _copy_note(raw: Msg) -> str:
    """Says that a line is a handed-back copy (the same event queued again), not a new event."""
    copy = handed_back_by(raw.subject, raw.headers)
    if copy is None:
        return ""
    durable, replaced = copy
    return f"  (handed back by {durable} at shutdown: a copy of #{replaced})"


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
