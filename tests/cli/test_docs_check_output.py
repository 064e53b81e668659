"""`sextant docs-check` as a new user reads it: which commit it read, the same words for a bad folder as
every other command, a `--fix` that says when it has nothing to replace, and options that exclude
each other refused instead of one silently winning."""

from __future__ import annotations

import json
import subprocess

import pytest
from typer.testing import CliRunner

from sextant.cli.main import app

from ..conftest import GitRepo


@pytest.fixture
def repo(git_repo: GitRepo) -> GitRepo:
    git_repo.write("acme/app.py", "def serve() -> None:\n    pass\n")
    git_repo.write("README.md", "Call `serve()`.\n")
    git_repo.commit("first")
    return git_repo


def head_of(repo: GitRepo) -> str:
    return subprocess.run(
        ["git", "-C", str(repo.root), "rev-parse", "HEAD"], check=True, capture_output=True, text=True
    ).stdout.strip()


def test_the_report_opens_with_the_commit_it_read(repo: GitRepo) -> None:
    head = head_of(repo)
    plain = CliRunner().invoke(app, ["docs-check", str(repo.root)])
    assert plain.exit_code == 0, plain.output
    assert plain.output.splitlines()[0] == f"Checked {repo.root} at commit {head[:12]}, read from git in place."

    earlier = CliRunner().invoke(app, ["docs-check", str(repo.root), "--commit", "HEAD"])
    assert earlier.output.splitlines()[0].startswith(f"Checked {repo.root} at commit {head[:12]}")


def test_the_json_report_names_the_repository_and_the_commit(repo: GitRepo) -> None:
    result = CliRunner().invoke(app, ["docs-check", str(repo.root), "--json"])
    report = json.loads(result.output)
    assert (report["repo"], report["commit"], report["ref"]) == (str(repo.root.resolve()), head_of(repo), "HEAD")
    assert report["totals"]["verified"] == 1  # the report itself is as before, beside them


def test_fix_with_nothing_to_replace_says_so_and_prints_no_diff(repo: GitRepo) -> None:
    result = CliRunner().invoke(app, ["docs-check", str(repo.root), "--fix"])
    assert result.exit_code == 0
    assert result.stdout == ""  # stdout stays a diff `git apply` takes: here an empty one
    assert result.stderr == "sextant docs-check: nothing to replace: no claim is contradicted\n"


def test_json_and_fix_together_are_refused(repo: GitRepo) -> None:
    result = CliRunner().invoke(app, ["docs-check", str(repo.root), "--json", "--fix"])
    assert result.exit_code == 2
    assert result.stderr == "sextant docs-check: --json prints the report, --fix a diff to apply: give one of them\n"


def test_a_folder_inside_the_repository_gets_the_words_every_command_uses(repo: GitRepo) -> None:
    result = CliRunner().invoke(app, ["docs-check", str(repo.root / "acme")])
    assert result.exit_code == 2
    assert f"is a folder inside the git repository {repo.root.resolve()}" in result.stderr
    assert f"give {repo.root.resolve()}" in result.stderr


def test_an_unknown_commit_is_named(repo: GitRepo) -> None:
    result = CliRunner().invoke(app, ["docs-check", str(repo.root), "--commit", "no-such-ref"])
    assert result.exit_code == 2
    assert result.stderr.startswith("sextant docs-check: 'no-such-ref' does not name a commit of the repository")


def test_unverifiable_claims_counted_but_not_listed_say_where_they_are(repo: GitRepo) -> None:
    repo.write("README.md", "Call `serve()`, then `vanished_helper()`.\n")
    repo.commit("second")
    result = CliRunner().invoke(app, ["docs-check", str(repo.root)])
    report = json.loads(CliRunner().invoke(app, ["docs-check", str(repo.root), "--json"]).output)
    unverifiable = report["totals"]["unverifiable"]
    assert unverifiable >= 1
    claims = "claim is" if unverifiable == 1 else "claims are"
    assert (
        result.output.splitlines()[-1]
        == f"The {unverifiable} unverifiable {claims} not listed here; --json lists every finding."
    )
