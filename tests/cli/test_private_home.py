"""`sextant analyze` keeps SEXTANT_HOME and every data folder it creates private to its user.

The home holds clones of private repositories, the chunk store's raw text of every file (secrets
included) and the bus's stored events, so on a shared machine no other user may read any of it.
The command runs as `make run` runs it (a subprocess, umask 022 as on most machines), on a
repository reached by URL so that its blob-less mirror is cloned under the home too; the embedding
provider is a local server speaking OpenAI's wire format.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..conftest import GitRepo
from ..support.provider_server import ProviderServer
from ..support.wire_formats import openai_embeddings

pytestmark = [pytest.mark.process, pytest.mark.bus]
DIMENSION = 8
OTHERS = stat.S_IRWXG | stat.S_IRWXO
DATA_FOLDERS = ("nats", "qdrant", "mirrors")


def _answer(request: Any) -> Any:
    return openai_embeddings([[float(len(text) % 7) + 1.0] * DIMENSION for text in request["input"]], model="fake")


@pytest.fixture
def provider_env(tmp_path: Path) -> Iterator[dict[str, str]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NATS_", "QDRANT_", "OTEL_", "LLM_", "EMBED"))}
    env.pop("ANTHROPIC_API_KEY", None)
    with ProviderServer(answer=_answer) as provider:
        yield env | {
            "SEXTANT_HOME": str(tmp_path / "home"), "INDEX_FILE_RECENCY": "true",
            "EMBEDDINGS_PROVIDER": "openai", "EMBEDDINGS_BASE_URL": f"{provider.url}/v1",
            "EMBEDDINGS_MODEL": "fake-embed", "EMBEDDINGS_DIMENSION": str(DIMENSION),
            "OPENAI_API_KEY": "sk-test-fake-provider-key-0000",
        }  # fmt: skip


@pytest.fixture
def private_repo(git_repo: GitRepo) -> GitRepo:
    git_repo.commit_files(
        "code",
        {"README.md": "# Shop\n\nA shop.\n", "shop/settings.py": 'DATABASE_PASSWORD = "hunter2-shop"\n'},
        date="2026-06-01T09:00:00+00:00",
    )
    return git_repo


def _analyze(env: dict[str, str], repo: GitRepo) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "sextant.cli", "analyze", repo.url, "--no-wait"],
        env=env, capture_output=True, text=True, timeout=180, umask=0o022, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return result


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _readable_by_others(home: Path) -> list[str]:
    """Everything under ``home`` another user could list or read: it, and every folder above it up to
    ``home``, let group or others in (a private folder on the way shuts them out of all below it)."""
    found: list[str] = []
    for folder, folders, files in os.walk(home):
        here = Path(folder)
        chain = [here, *here.relative_to(home).parents]
        if all(_mode(home / step) & OTHERS for step in chain):
            found += [str(here / name) for name in [*folders, *files] if _mode(here / name) & OTHERS]
    return found


def test_a_new_home_and_its_data_folders_are_owner_only(provider_env: dict[str, str], private_repo: GitRepo) -> None:
    home = Path(provider_env["SEXTANT_HOME"])

    _analyze(provider_env, private_repo)

    assert _mode(home) == 0o700
    assert {name: _mode(home / name) for name in DATA_FOLDERS} == dict.fromkeys(DATA_FOLDERS, 0o700)
    assert list((home / "mirrors").glob("*.git")), "the repository was cloned under the home"
    assert _mode(home / "runtime.lock") == 0o600
    assert _readable_by_others(home) == []


def test_loose_folders_left_by_an_older_run_are_tightened_and_said(
    provider_env: dict[str, str], private_repo: GitRepo, tmp_path: Path
) -> None:
    home = Path(provider_env["SEXTANT_HOME"])
    store = tmp_path / "shared-store"  # QDRANT_PATH outside the home is one of its data folders too
    for folder in (home, *(home / name for name in DATA_FOLDERS), store):
        folder.mkdir(mode=0o755)
        folder.chmod(0o755)
    (home / "notes.txt").write_text("left here\n")
    (home / "notes.txt").chmod(0o644)

    result = _analyze(provider_env | {"QDRANT_PATH": str(store)}, private_repo)

    assert {str(folder): _mode(folder) for folder in (home, home / "nats", home / "mirrors", store)} == {
        str(folder): 0o700 for folder in (home, home / "nats", home / "mirrors", store)
    }
    assert _readable_by_others(home) == []
    assert f"{home} was open to other users (mode 755); made it owner-only (700)" in result.stderr
    assert f"{store} was open to other users (mode 755); made it owner-only (700)" in result.stderr
