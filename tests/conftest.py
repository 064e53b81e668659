"""Fixtures shared by every test tier: real git repositories built on the spot."""

from __future__ import annotations

import inspect
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings

# hypothesis is imported at start-up on purpose: CPython 3.11.7 can raise "AST constructor recursion
# depth mismatch" from a compile() that runs after FastStream's TestNatsBroker has parsed source with
# `ast`, and hypothesis's plugin otherwise imports (and pytest rewrites) its modules only in the final
# summary.

# Property tests take their example count from a profile: "full" (150 each) in `make test`, "fast" (20)
# in `make test-fast` (--hypothesis-profile=fast). No deadline: a loaded machine must not fail on time.
settings.register_profile("full", max_examples=150, deadline=None)
settings.register_profile("fast", max_examples=20, deadline=None)
settings.load_profile("full")

REAL_BUS_FIXTURES = frozenset({"sextant", "sextant_env", "nats_url", "embedded_nats", "nats_server"})
"""Fixtures that start a real nats-server (directly, or through the `sextant` command)."""


def _starts_a_server(fixture: pytest.FixtureDef[object]) -> bool:
    """Whether a fixture's own body starts an `EmbeddedNats` (e.g. a conftest's webhook server)."""
    code = getattr(inspect.unwrap(fixture.func), "__code__", None)
    return code is not None and "EmbeddedNats" in code.co_names


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that runs a real nats-server ``bus``, so `make test-fast` can leave them out.

    A test is on the bus when its module uses ``EmbeddedNats``, it asks for a fixture that starts
    a server (see REAL_BUS_FIXTURES), or any fixture it uses starts one in its body; a test may also
    say so itself with ``@pytest.mark.bus``.
    """
    for item in items:
        module = getattr(item, "module", None)
        uses_server = module is not None and hasattr(module, "EmbeddedNats")
        fixtures = set(getattr(item, "fixturenames", ()))
        info = getattr(item, "_fixtureinfo", None)
        definitions = [d for defs in info.name2fixturedefs.values() for d in defs] if info is not None else []
        if uses_server or fixtures & REAL_BUS_FIXTURES or any(_starts_a_server(d) for d in definitions):
            item.add_marker(pytest.mark.bus)


class GitRepo:
    """A real git repository in a temp folder, with commits at chosen dates."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.git("config", "user.email", "test@example.com")
        self.git("config", "user.name", "Sextant Test")
        self.git("config", "uploadpack.allowFilter", "true")
        self.git("config", "uploadpack.allowAnySHA1InWant", "true")

    def git(self, *args: str, date: str | None = None) -> str:
        env = dict(os.environ)
        if date:
            env["GIT_AUTHOR_DATE"] = date
            env["GIT_COMMITTER_DATE"] = date
        out = subprocess.run(["git", "-C", str(self.root), *args], check=True, capture_output=True, env=env)
        return out.stdout.decode("utf-8", "surrogateescape")

    def write(self, path: str, content: str | bytes) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")

    def remove(self, path: str) -> None:
        self.git("rm", "-q", "--", path)

    def move(self, old: str, new: str) -> None:
        (self.root / new).parent.mkdir(parents=True, exist_ok=True)
        self.git("mv", "--", old, new)

    def commit(self, message: str, date: str = "2026-01-01T12:00:00+00:00") -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message, date=date)
        return self.git("rev-parse", "HEAD").strip()

    def commit_files(self, message: str, files: dict[str, str | bytes], date: str = "2026-01-01T12:00:00+00:00") -> str:
        """Write each path's content, then commit everything: one commit of the repository's history."""
        for path, content in files.items():
            self.write(path, content)
        return self.commit(message, date=date)

    @property
    def url(self) -> str:
        return self.root.as_uri()


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepo:
    """A fresh, empty git repository on branch main."""
    return GitRepo(tmp_path / "repo")
