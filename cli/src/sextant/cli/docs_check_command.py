"""`sextant docs-check REPO`: the doc-claim check alone, for a CI step on a docs change.

It reads the repository with git in place (tree, one batch of blobs, a bounded history look-up): no
index, no embedding, no bus, so it answers in seconds and needs nothing running. An index would
save only the parsing, and could lag the commit being checked; git is always at the commit.
"""

from __future__ import annotations

from pathlib import Path
from typing import NoReturn

import msgspec
import typer

from sextant.cli.repository_check import check_local_repository
from sextant.cli.usage_problem import UsageError
from sextant.doc_claims import ClaimFinding, DocCheckReport, check_repository, render_findings_markdown, suggest_fixes
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
    """Check every doc's claims against the code and its history; exit 1 when any is contradicted.

    The text report opens with the repository and commit it read; ``--json`` carries them as
    ``repo`` and ``commit``; ``--fix`` prints the diff alone (``git apply`` takes it), and says on
    stderr when there is nothing to replace.
    """
    if as_json and fix:
        _refuse("--json prints the report, --fix a diff to apply: give one of them")
    if ":/" in str(repo) or str(repo).startswith("git@"):  # a URL, with its // folded by Path
        _refuse("it reads a local repository, not a URL: clone it and pass the folder")
    try:  # the same rules, and the same words, as every other command's local repository
        check_local_repository(str(repo))
        head = open_history(repo, commit).head
        report = check_repository(repo, commit)
    except UsageError as error:
        _refuse(str(error))
    except GitSourceError as error:
        _refuse(str(error))
    if fix:
        diff = suggest_fixes(report.findings, _doc_texts(repo, commit, report.findings))
        typer.echo(diff, nl=False)
        if not diff:
            typer.echo(f"sextant docs-check: {_nothing_to_fix(report)}", err=True)
    elif as_json:
        masked = msgspec.structs.replace(report, findings=[redact_finding(f) for f in report.findings])
        checked = {"repo": str(repo.expanduser().resolve()), "commit": head, "ref": commit}
        typer.echo(msgspec.json.encode({**checked, **msgspec.to_builtins(masked)}).decode())
    else:
        typer.echo(f"Checked {repo} at commit {head[:12]}{_ref_note(commit)}, read from git in place.")
        typer.echo(render_findings_markdown(report, limit=_NO_LIMIT, against=f"the code at {head[:12]}"), nl=False)
        if report.totals.unverifiable:  # counted above, listed nowhere: say where they are
            typer.echo(_unlisted(report.totals.unverifiable))
    if report.totals.contradicted:
        raise typer.Exit(1)


def _refuse(message: str) -> NoReturn:
    typer.echo(f"sextant docs-check: {message}", err=True)
    raise typer.Exit(2)


def _unlisted(unverifiable: int) -> str:
    claims = "claim is" if unverifiable == 1 else "claims are"
    return f"The {unverifiable} unverifiable {claims} not listed here; --json lists every finding."


def _ref_note(commit: str) -> str:
    return "" if commit == "HEAD" else f" ({commit})"


def _nothing_to_fix(report: DocCheckReport) -> str:
    """Why ``--fix`` printed no diff: nothing contradicted, or no contradicted name with a known replacement."""
    contradicted = report.totals.contradicted
    if not contradicted:
        return "nothing to replace: no claim is contradicted"
    claims = "claim is" if contradicted == 1 else "claims are"
    return f"nothing to replace: {contradicted} {claims} contradicted, none with a known replacement name"


def _doc_texts(repo: Path, commit: str, findings: list[ClaimFinding]) -> dict[str, str]:
    """The docs that have a suggested replacement, read at the checked commit."""
    opened = open_history(repo, commit)
    names = {f.doc: f"{opened.head}:{f.doc}" for f in findings if f.replacement}
    contents = read_objects(opened, names.values())
    return {doc: contents[name].decode("utf-8", "replace") for doc, name in names.items() if name in contents}
