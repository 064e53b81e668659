"""`sextant docs-check REPO`: the doc-claim check alone, for a CI step on a docs change.

It reads the repository with git in place (tree, one batch of blobs, a bounded history look-up): no
index, no embedding, no bus, so it answers in seconds and needs nothing running. An index would
save only the parsing, and could lag the commit being checked; git is always at the commit.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import typer

from sextant.doc_claims import ClaimFinding, check_repository, render_findings_markdown, suggest_fixes
from sextant.doc_claims.report.secrets import redact_finding
from sextant.gitsource import GitSourceError
from sextant.gitsource.history_access import open_history
from sextant.gitsource.history_trees import read_objects

_NO_LIMIT = 10_000


def register(app: typer.Typer) -> None:
    """Add `docs-check` to the app."""
    app.command(name="docs-check")(docs_check)


def docs_check(
    repo: Path = typer.Argument(..., help="A local git repository (work tree or bare), read in place."),  # noqa: B008
    commit: str = typer.Option("HEAD", "--commit", help="The commit (or ref) whose docs are checked."),
    as_json: bool = typer.Option(False, "--json", help="Print the whole report as JSON."),
    fix: bool = typer.Option(False, "--fix", help="Print a unified diff replacing renamed names (never applied)."),
) -> None:
    """Check every doc's claims against the code and its history; exit 1 when any is contradicted."""
    if ":/" in str(repo) or str(repo).startswith("git@"):  # a URL, with its // folded by Path
        typer.echo("sextant docs-check: it reads a local repository, not a URL: clone it and pass the folder", err=True)
        raise typer.Exit(2)
    if repo.is_file():  # git would call it missing; the person should hear what it is
        typer.echo(f"sextant docs-check: '{repo}' is a file, not a repository folder", err=True)
        raise typer.Exit(2)
    try:
        report = check_repository(repo, commit)
    except GitSourceError as error:
        typer.echo(f"sextant docs-check: {error}", err=True)
        raise typer.Exit(2) from None
    if fix:
        typer.echo(suggest_fixes(report.findings, _doc_texts(repo, commit, report.findings)), nl=False)
    elif as_json:
        masked = msgspec.structs.replace(report, findings=[redact_finding(f) for f in report.findings])
        typer.echo(msgspec.json.encode(masked).decode())
    else:
        typer.echo(render_findings_markdown(report, limit=_NO_LIMIT), nl=False)
    if report.totals.contradicted:
        raise typer.Exit(1)


def _doc_texts(repo: Path, commit: str, findings: list[ClaimFinding]) -> dict[str, str]:
    """The docs that have a suggested replacement, read at the checked commit."""
    opened = open_history(repo, commit)
    names = {f.doc: f"{opened.head}:{f.doc}" for f in findings if f.replacement}
    contents = read_objects(opened, names.values())
    return {doc: contents[name].decode("utf-8", "replace") for doc, name in names.items() if name in contents}
