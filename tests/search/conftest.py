"""A small real repository, indexed once per module with the real local model through the real `sextant`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..conftest import GitRepo

AUTH = '''"""Sessions for the web app."""


def login_user(name: str, password: str) -> bool:
    """Check a user's password and open a session."""
    return check_password(name, password)


def check_password(name: str, password: str) -> bool:
    """Compare the password against the stored hash."""
    return bool(name and password)


def login_attempts_left(name: str) -> int:
    """How many tries remain before the account locks."""
    return 3
'''

APP = '''from auth import login_user


def main() -> None:
    """Entry point: sign the demo user in."""
    login_user("demo", "secret")
'''

DESIGN = """# Authentication design

Users sign in through `login_user()`, which checks the password with `check_password()`
and opens a session.
"""

RENDER = '''def render_invoice(total: float) -> str:
    """Format an invoice total as money."""
    return f"${total:.2f}"
'''


@dataclass
class IndexedRepo:
    """The repository, its key and collection, and a runner for `sextant` against its home."""

    repo: GitRepo
    repo_key: str
    collection: str
    home: Path
    run: Callable[..., subprocess.CompletedProcess[str]]


def build_shop(root: Path) -> GitRepo:
    """Old design doc (2024), current code (2026)."""
    repo = GitRepo(root)
    repo.write("docs/design.md", DESIGN)
    repo.commit("design doc", date="2024-03-01T10:00:00+00:00")
    repo.write("src/auth.py", AUTH)
    repo.write("src/app.py", APP)
    repo.write("billing/render.py", RENDER)
    repo.commit("code", date="2026-06-01T10:00:00+00:00")
    return repo


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory) -> IndexedRepo:
    """The shop repository indexed by `sextant index` (embedded runtime, local model)."""
    base = tmp_path_factory.mktemp("search")
    repo = build_shop(base / "shop")
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("NATS_", "QDRANT_", "OTEL_", "LLM_", "EMBEDDINGS_"))
    }
    env |= {"SEXTANT_HOME": str(base / "home"), "INDEX_FILE_RECENCY": "true"}

    def run(*args: str, check: bool = True, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [sys.executable, "-m", "sextant.cli", *args],
            check=False, env=env, capture_output=True, text=True, timeout=900, cwd=cwd or repo.root,
        )  # fmt: skip
        if check and result.returncode != 0:
            raise AssertionError(f"sextant {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
        return result

    result = json.loads(run("index", str(repo.root), "--json").stdout)
    return IndexedRepo(
        repo=repo, repo_key=result["repo"]["repo_key"], collection=result["collection"], home=base / "home", run=run
    )
