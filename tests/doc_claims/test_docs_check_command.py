"""`sextant docs-check`: exit status, JSON report, and the suggested diff, on a real repository."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from sextant.cli.main import app

from ..conftest import GitRepo
from .test_history_evidence import renamed_history


def test_docs_check_reports_exits_1_and_suggests_the_rename(git_repo: GitRepo) -> None:
    renamed_history(git_repo)
    runner = CliRunner()

    plain = runner.invoke(app, ["docs-check", str(git_repo.root)])
    assert plain.exit_code == 1
    lines = plain.output.splitlines()
    alarms = [line for line in lines if line.startswith("- docs/sessions.md")]
    assert alarms[0].startswith(
        "- docs/sessions.md:3 `SyncSession` (symbol), `SyncSession.refresh()` (symbol) — contradicted"
    )
    assert "verified:" not in plain.output  # verified claims are counts
    head = git_repo.git("rev-parse", "HEAD").strip()[:12]
    assert f"Doc claims checked against the code at {head}: " in plain.output  # git read in place, no index

    as_json = runner.invoke(app, ["docs-check", str(git_repo.root), "--json"])
    report = json.loads(as_json.output)
    stale = next(f for f in report["findings"] if f["ref"] == "SyncSession")
    assert stale["replacement"] == "Session"
    assert stale["removed_at"] == "2019-05-11"

    fix = runner.invoke(app, ["docs-check", str(git_repo.root), "--fix"])
    assert fix.exit_code == 1
    assert "-Create a `SyncSession` and call `SyncSession.refresh()`.\n" in fix.output
    assert "+Create a `Session` and call `Session.refresh()`.\n" in fix.output
    assert (git_repo.root / "docs/sessions.md").read_text().count("SyncSession") == 2  # never applied


def test_docs_check_exits_0_when_nothing_is_contradicted(git_repo: GitRepo) -> None:
    git_repo.write("acme/app.py", "def serve() -> None:\n    pass\n")
    git_repo.write("README.md", "Call `serve()`.\n")
    git_repo.commit("first")
    result = CliRunner().invoke(app, ["docs-check", str(git_repo.root)])
    assert result.exit_code == 0, result.output
    assert "Docs whose claims check out: README.md (1 verified)." in result.output


def test_docs_check_refuses_a_folder_that_is_not_a_repository(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["docs-check", str(tmp_path)])
    assert result.exit_code == 2


LONG_DOC = (
    "# Sessions\n\n"
    + "".join(f"Paragraph {n} about sessions.\n\n" for n in range(120))  # blank lines: common in a long doc
    + "Create a `SyncSession` first, then use the SyncSession.\n"
    + "\n"
    + "Then close the `SyncSession`."  # the last line, without a newline
)


def test_the_suggested_diff_touches_only_changed_lines_and_applies_with_git(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/session.py", "class SyncSession:\n    pass\n")
    git_repo.write("docs/long.md", LONG_DOC)
    git_repo.commit("Add sessions", date="2019-01-02T10:00:00+00:00")
    git_repo.write("acme/session.py", "class Session:\n    pass\n")
    git_repo.commit("Rename SyncSession to Session", date="2019-05-11T10:00:00+00:00")

    fix = CliRunner().invoke(app, ["docs-check", str(git_repo.root), "--fix"])

    assert fix.exit_code == 1
    diff = fix.output
    changed = [line for line in diff.splitlines() if line[:1] in "+-" and not line.startswith(("---", "+++"))]
    assert changed == [
        "-Create a `SyncSession` first, then use the SyncSession.",
        "+Create a `Session` first, then use the Session.",
        "-Then close the `SyncSession`.",
        "+Then close the `Session`.",
    ]  # the blank line between them is context, not removed and added again
    assert diff.count("\\ No newline at end of file") == 2
    patch = git_repo.root.parent / "fix.diff"
    patch.write_text(diff)
    applied = subprocess.run(
        ["git", "-C", str(git_repo.root), "apply", "--check", str(patch)], check=False, capture_output=True, text=True
    )
    assert applied.returncode == 0, applied.stderr
    assert "SyncSession" in (git_repo.root / "docs/long.md").read_text()  # never applied by itself


def test_docs_check_says_a_file_is_not_a_repository(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# Not a repository\n")
    result = CliRunner().invoke(app, ["docs-check", str(readme)])
    assert result.exit_code == 2
    assert "is a file, not a repository folder" in result.output


def test_the_suggested_diff_counts_lines_as_git_does(git_repo: GitRepo) -> None:
    # A form feed (a page break, as old docs have) or a Unicode line separator ends no line for git.
    doc = "# Sessions\n\nPage one.\x0cPage two.\n\nA line\u2028separated.\n\nCreate a `SyncSession` first.\n"
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/session.py", "class SyncSession:\n    pass\n")
    git_repo.write("docs/paged.md", doc)
    git_repo.commit("Add sessions", date="2019-01-02T10:00:00+00:00")
    git_repo.write("acme/session.py", "class Session:\n    pass\n")
    git_repo.commit("Rename SyncSession to Session", date="2019-05-11T10:00:00+00:00")

    diff = CliRunner().invoke(app, ["docs-check", str(git_repo.root), "--fix"]).output

    assert "-Create a `SyncSession` first.\n+Create a `Session` first.\n" in diff
    assert "\\ No newline at end of file" not in diff
    patch = git_repo.root.parent / "fix.diff"
    patch.write_bytes(diff.encode())
    applied = subprocess.run(["git", "-C", str(git_repo.root), "apply", str(patch)], check=False, capture_output=True)
    assert applied.returncode == 0, applied.stderr
    assert (git_repo.root / "docs/paged.md").read_text() == doc.replace("SyncSession", "Session")
