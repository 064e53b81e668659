"""Chunk payloads for doc-claim tests, shaped exactly as the indexer writes them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_rules.kinds import chunk_kind

MakeChunk = Callable[..., ChunkPayload]


@pytest.fixture
def chunk() -> MakeChunk:
    """Build a ChunkPayload: `chunk(path, text, start_line=1, date=..., symbol=..., ...)`."""

    def make(
        path: str,
        text: str,
        *,
        start_line: int = 1,
        date: str | msgspec.UnsetType | None = "2026-01-10T12:00:00+00:00",
        **fields: Any,
    ) -> ChunkPayload:
        kind = chunk_kind(path)
        return ChunkPayload(
            repo_key="acme-app",
            path=path,
            blob_sha="0" * 40,
            kind=kind,
            language="markdown" if kind == "doc" else "python",
            start_line=start_line,
            end_line=start_line + max(text.count("\n"), 0),
            text=text,
            indexed_at="2026-02-01T00:00:00Z",
            last_modified_at=date,
            **fields,
        )

    return make


AUTH_PY = '''\
"""Authentication."""
import os

NATS = os.environ["NATS_URL"]


class Session:
    """A logged-in session."""

    def refresh(self) -> None:
        """Extend the session."""


def login(user: str) -> Session:
    return Session()
'''

CLI_PY = """\
import argparse


def main(window_size: int = 0) -> None:
    parser = argparse.ArgumentParser(prog="acme")
    sub = parser.add_subparsers()
    index = sub.add_parser("index")
    index.add_argument("--force", action="store_true")
    index.add_argument("--dry-run", action="store_true")
"""

PYPROJECT = """\
[project.scripts]
acme = "app.cli:main"

[tool.acme]
max-retries = 3
"""


@pytest.fixture
def code_chunks(chunk: MakeChunk) -> list[ChunkPayload]:
    """A small repository's code chunks: symbols, an env var, a CLI with flags, a config table."""
    auth_date = "2025-09-30T09:00:00+00:00"
    return [
        chunk("src/app/auth.py", AUTH_PY, date=auth_date),
        chunk(
            "src/app/auth.py",
            AUTH_PY.split("\n\n\n")[1],
            start_line=7,
            date=auth_date,
            symbol="Session",
            symbol_type="class",
            package="app.auth",
        ),
        chunk(
            "src/app/auth.py",
            "    def refresh(self) -> None:\n",
            start_line=10,
            date=auth_date,
            symbol="refresh",
            symbol_type="method",
            parent="Session",
            package="app.auth",
        ),
        chunk(
            "src/app/auth.py",
            "def login(user: str) -> Session:\n    return Session()\n",
            start_line=14,
            date=auth_date,
            symbol="login",
            symbol_type="function",
            package="app.auth",
        ),
        chunk(
            "src/app/cli.py",
            CLI_PY,
            date="2026-01-10T12:00:00+00:00",
            symbol="main",
            symbol_type="function",
            package="app.cli",
        ),
        chunk("src/app/__init__.py", "", date=None),
        chunk("pyproject.toml", PYPROJECT, date="2025-12-01T00:00:00Z"),
        chunk("docs/guide/setup.md", "# Setup\n", date="2026-01-02T00:00:00Z"),
        chunk("README.md", "# Acme\n", date=msgspec.UNSET),
    ]
