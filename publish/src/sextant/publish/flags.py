"""The flags of ``publish repo-updated``, defined once for `sextant publish` and `sextant-publish`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sextant.contracts import RepoUpdated
from sextant.publish.request import RequestError, build_repo_updated, repo_updated_from_json

PROVIDERS = ("github", "gitlab", "bitbucket", "generic")


def repo_updated_parser(prog: str) -> argparse.ArgumentParser:
    """The argument parser of ``publish repo-updated``.

    Args:
        prog: The command name shown in usage lines.

    Returns:
        A parser; ``request_from_arguments`` turns its result into the event.
    """
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Publish a RepoUpdated: the event a CI job sends after a push.",
    )
    parser.add_argument("url", nargs="?", help="Repository URL or local path.")
    parser.add_argument("--branch", help="Branch (default: the repository's default).")
    parser.add_argument("--provider", default="generic", choices=PROVIDERS, help="Hosting provider (token variable).")
    parser.add_argument("--head-sha", help="Head commit of the branch (makes a retried publish a duplicate).")
    parser.add_argument("--head-commit-date", help="ISO 8601 date of the head commit.")
    parser.add_argument(
        "--changed", action="append", metavar="PATH", help="A changed path (repeat): an incremental run."
    )
    parser.add_argument("--removed", action="append", metavar="PATH", help="A removed path (repeat).")
    parser.add_argument(
        "--paths-from",
        type=Path,
        metavar="FILE",
        help="Read changes from FILE: `git diff --name-status [-z]` output (A/M/D/R…); an incremental run.",
    )
    parser.add_argument("--force", action="store_true", help="Re-index every file even if unchanged.")
    parser.add_argument("--run-id", help="Run id (default: derived from the request when --head-sha is given).")
    parser.add_argument("--from-json", metavar="FILE", help="Read the whole request from a JSON file ('-' = stdin).")
    parser.add_argument(
        "--dry-run", action="store_true", help="Print the subject, headers and body as JSON; publish nothing."
    )
    return parser


def _name_status_records(text: str) -> list[list[str]]:
    """(status, path[, new path]) records from plain (tab/newline) or ``-z`` (NUL) output."""
    if "\0" not in text:
        return [line.split("\t") for line in text.splitlines() if line.strip()]
    tokens = text.split("\0")
    records: list[list[str]] = []
    position = 0
    while position < len(tokens) and tokens[position]:
        status = tokens[position]
        width = 2 if status[0] in "RC" else 1  # a rename or copy names two paths
        records.append([status, *tokens[position + 1 : position + 1 + width]])
        position += 1 + width
    return records


def read_name_status(text: str) -> tuple[list[str], list[str]]:
    """Changed and removed paths from ``git diff --name-status`` output (plain or ``-z``).

    With ``-z`` every file name survives, newlines included. A rename counts as the old path removed
    and the new one changed; a copy as the new one changed.

    Args:
        text: The command's output.

    Returns:
        (changed, removed), each in first-seen order without repeats.
    """
    changed: dict[str, None] = {}
    removed: dict[str, None] = {}
    for fields in _name_status_records(text):
        if len(fields) < 2 or not fields[0]:
            continue
        status = fields[0][0]
        if status == "D":
            removed[fields[1]] = None
            changed.pop(fields[1], None)
            continue
        if status == "R" and len(fields) >= 3:
            removed[fields[1]] = None
            changed.pop(fields[1], None)
        target = fields[-1]
        changed[target] = None
        removed.pop(target, None)
    return list(changed), list(removed)


def _read_file(path: str, what: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise RequestError(f"{what} {path}: no such file") from None
    except OSError as error:
        raise RequestError(f"{what} {path}: cannot read it ({error.strerror})") from None


def request_from_arguments(arguments: argparse.Namespace) -> RepoUpdated:
    """The RepoUpdated the parsed flags ask for.

    Args:
        arguments: What ``repo_updated_parser(...).parse_args`` returned.

    Returns:
        The event.

    Raises:
        RequestError: when neither a URL nor ``--from-json`` is given, a file is missing, the JSON is
            not a request, or the URL carries credentials.
    """
    if arguments.from_json is not None:
        return repo_updated_from_json(_read_file(arguments.from_json, "--from-json"))
    if not arguments.url:
        raise RequestError("give a repository URL or path, or --from-json FILE")
    changed = list(arguments.changed or [])
    removed = list(arguments.removed or [])
    if arguments.paths_from is not None:
        more_changed, more_removed = read_name_status(_read_file(str(arguments.paths_from), "--paths-from").decode())
        changed += more_changed
        removed += more_removed
    incremental = arguments.changed is not None or arguments.removed is not None or arguments.paths_from is not None
    return build_repo_updated(
        arguments.url,
        provider=arguments.provider,
        branch=arguments.branch,
        head_sha=arguments.head_sha,
        head_commit_date=arguments.head_commit_date,
        changed_paths=changed if incremental else None,
        removed_paths=removed or None,
        force=arguments.force,
        run_id=arguments.run_id,
    )
