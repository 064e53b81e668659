"""``sextant-publish repo-updated …``: what a CI job runs after a push (same flags as `sextant publish`)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Mapping, Sequence

from sextant.contracts import RepoUpdated, encode_event, event_headers, event_name, subject_for
from sextant.publish.connection import ConnectionSettingsError, connect_options
from sextant.publish.flags import repo_updated_parser, request_from_arguments
from sextant.publish.request import RequestError
from sextant.publish.sending import fitting_request, publish_once

USAGE_EXIT_STATUS = 2
"""A mistake the person can fix (missing NATS_URL, a bad flag or file, a refused credential)."""
UNREACHABLE_EXIT_STATUS = 1
"""The server could not be reached or refused the publish (CI should fail and may retry)."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sextant-publish", description="Publish Sextant request events.")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser(
        "repo-updated",
        parents=[repo_updated_parser("sextant-publish repo-updated")],
        add_help=False,
        help="Publish a RepoUpdated (the event a CI job sends after a push).",
    )
    return parser


def dry_run_description(event: RepoUpdated) -> str:
    """What would be published, as one JSON object (for `nats pub` or a reader).

    Args:
        event: The request.

    Returns:
        ``{"subject", "headers", "body"}`` as JSON text.
    """
    body = json.loads(encode_event(event))
    return json.dumps({"subject": subject_for(event), "headers": event_headers(event), "body": body})


async def _publish(event: RepoUpdated, env: Mapping[str, str]) -> bool:
    import nats

    connection = await nats.connect(**connect_options(env))
    try:
        return await publish_once(connection.jetstream(), event, traceparent=env.get("TRACEPARENT"))
    finally:
        await connection.close()


def main(argv: Sequence[str] | None = None, env: Mapping[str, str] | None = None) -> int:
    """Parse the flags, build the event, publish it once.

    Args:
        argv: Arguments (default: the process's).
        env: Environment (default: the process's).

    Returns:
        The exit status.
    """
    environment = os.environ if env is None else env
    arguments = _parser().parse_args(argv)
    try:
        event, widened = fitting_request(request_from_arguments(arguments))
        if arguments.dry_run:
            print(dry_run_description(event))  # noqa: T201 — the command's output
            return 0
        fresh = asyncio.run(_publish(event, environment))
    except (RequestError, ConnectionSettingsError) as error:
        print(f"sextant-publish: {error}", file=sys.stderr)  # noqa: T201
        return USAGE_EXIT_STATUS
    except Exception as error:  # the server: unreachable, refused credentials, no stream
        print(f"sextant-publish: could not publish: {type(error).__name__}: {error}", file=sys.stderr)  # noqa: T201
        return UNREACHABLE_EXIT_STATUS
    note = " (sent as a full run: the path lists were too large for one message)" if widened else ""
    duplicate = "" if fresh else " (duplicate: already in the stream)"
    print(f"published {event_name(RepoUpdated)} for {event.repo.repo_key} run {event.run_id}{note}{duplicate}")  # noqa: T201
    return 0


def run() -> None:
    """The ``sextant-publish`` executable."""
    sys.exit(main())
