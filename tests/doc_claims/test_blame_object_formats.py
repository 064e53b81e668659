"""Blame dates a doc's lines in a repository of either object format (SHA-1 or SHA-256 commit ids)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from sextant.doc_claims.judging.definition_changes import line_commits
from sextant.gitsource.history_access import open_history


def _git(root: Path, *args: str, date: str | None = None) -> str:
    env = dict(os.environ)
    if date:
        env |= {"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    done = subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True, text=True, env=env)
    return done.stdout.strip()


@pytest.mark.parametrize("object_format", ["sha1", "sha256"])
def test_the_claims_lines_are_blamed_whatever_the_object_format(tmp_path: Path, object_format: str) -> None:
    root = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", f"--object-format={object_format}", str(root)], check=True)
    _git(root, "config", "user.email", "test@example.com")
    _git(root, "config", "user.name", "Sextant Test")
    (root / "guide.md").write_text("# Guide\n\nCall `place(order)`.\n", encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "guide", date="2026-01-05T12:00:00+00:00")
    written = _git(root, "rev-parse", "HEAD")
    (root / "guide.md").write_text("# The guide\n\nCall `place(order)`.\n", encoding="utf-8")
    _git(root, "commit", "-q", "-am", "title", date="2026-06-05T12:00:00+00:00")
    repo = open_history(root)
    blamed = line_commits(repo, {"guide.md": {3}}, max_docs=1)
    assert blamed == {("guide.md", 3): (written, "2026-01-05T12:00:00+00:00")}


def test_how_many_lines_are_dated_depends_on_the_work_budget_never_on_the_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    _git(root, "config", "user.email", "test@example.com")
    _git(root, "config", "user.name", "Sextant Test")
    for doc in ("a.md", "b.md"):
        (root / doc).write_text("# Guide\n\nCall `place(order)`.\n", encoding="utf-8")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "guides", date="2026-01-05T12:00:00+00:00")
    written = _git(root, "rev-parse", "HEAD")
    repo = open_history(root)
    # A clock that has jumped far ahead, as on a machine that all but stalled: the budget alone decides.
    monkeypatch.setattr(time, "monotonic", lambda: 1e12)
    blamed = line_commits(repo, {"a.md": {3}, "b.md": {3}}, max_docs=1)
    assert blamed == {("a.md", 3): (written, "2026-01-05T12:00:00+00:00")}
