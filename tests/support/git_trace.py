"""git's trace2 event log: every git process (and child) a test's code started, with its argv.

git_environment passes GIT_TRACE2_EVENT through to the children it starts, so setting it in the
test's environment records them all.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest


class Trace2:
    """Reads git's trace2 event stream: every git process (and child) our code started."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def events(self) -> list[dict[str, object]]:
        if not self.path.exists():
            return []
        return [json.loads(line) for line in self.path.read_text().splitlines() if line.strip()]

    def commands(self, *, top_level: bool = True) -> list[list[str]]:
        """argv (after "git" and global options) of each started git process, in order."""
        found = []
        for event in self.events():
            if event.get("event") != "start":
                continue
            if top_level and "/" in str(event.get("sid", "")):
                continue
            argv = [str(arg) for arg in event["argv"]]  # type: ignore[union-attr]
            found.append(_strip_global_options(argv[1:]))
        return found

    def spawned(self) -> list[tuple[list[str], list[str]]]:
        """(parent argv, child argv) of each git process that another git process started (a lazy
        fetch of missing objects shows here as a ``fetch`` under the command that needed them)."""
        by_sid: dict[str, list[str]] = {}
        pairs = []
        for event in self.events():
            if event.get("event") != "start":
                continue
            sid = str(event.get("sid", ""))
            argv = _strip_global_options([str(arg) for arg in event["argv"]][1:])  # type: ignore[union-attr]
            by_sid[sid] = argv
            if "/" in sid:
                pairs.append((by_sid.get(sid.rsplit("/", 1)[0], []), argv))
        return pairs

    def text(self) -> str:
        return self.path.read_text() if self.path.exists() else ""

    def clear(self) -> None:
        self.path.unlink(missing_ok=True)


def _strip_global_options(argv: list[str]) -> list[str]:
    while argv and argv[0] in {"--git-dir", "-c", "-C"}:
        argv = argv[2:]
    while argv and argv[0].startswith("--git-dir="):
        argv = argv[1:]
    return argv


@pytest.fixture
def trace2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Trace2:
    """Turn on git's trace2 event log (an environment variable git children inherit)."""
    path = tmp_path / "trace2.json"
    monkeypatch.setenv("GIT_TRACE2_EVENT", str(path))
    return Trace2(path)
