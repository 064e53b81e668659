"""The CI publisher as CI gets it: built with `uv build`, installed into a fresh venv with no index,
publishing to a real nats-server that a hosted service then consumes."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sextant.bootstrap import bootstrap, host
from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.contracts import FileRecencyComputed, RepoUpdated
from sextant.recency_scanner import app as recency_scanner

from ..conftest import GitRepo
from .installed_wheels import repack_installed

ROOT = Path(__file__).resolve().parents[2]
EXPECTED_DISTRIBUTIONS = {
    "sextant-publish",
    "sextant-contracts",
    "sextant-config",
    "sextant-secret-rules",  # the contracts mask a review request's texts with it (no dependencies of its own)
    "msgspec",
    "nats-py",
}


def _uv() -> str:
    found = shutil.which("uv") or str(ROOT / ".tools" / "bin" / "uv")
    assert Path(found).exists(), "uv is needed (make bootstrap installs it into .tools/)"
    return found


@pytest.fixture(scope="module")
def publisher(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The `sextant-publish` executable of a fresh venv: pip with no index, from local wheels only."""
    work = tmp_path_factory.mktemp("ci-publisher")
    dist = work / "dist"
    for package in ("sextant-secret-rules", "sextant-contracts", "sextant-config", "sextant-publish"):
        subprocess.run(
            [_uv(), "build", "--wheel", "--package", package, "--out-dir", str(dist), "--quiet"],
            cwd=ROOT, check=True, capture_output=True,
        )  # fmt: skip
    for dependency in ("msgspec", "nats-py"):
        repack_installed(dependency, dist)
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    started = time.monotonic()
    subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--no-index", "--find-links", str(dist), "sextant-publish"],
        check=True, capture_output=True,
    )  # fmt: skip
    seconds = time.monotonic() - started
    size = sum(f.stat().st_size for f in (venv / "lib").rglob("*") if f.is_file())
    print(f"\nsextant-publish installed in {seconds:.2f} s; its venv's packages take {size / 1e6:.1f} MB")
    return venv / "bin" / "sextant-publish"


def test_the_publisher_installs_only_the_contracts_and_nats(publisher: Path) -> None:
    listed = subprocess.run(
        [str(publisher.parent / "python"), "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    names = {entry["name"].lower() for entry in json.loads(listed.stdout)} - {"pip", "setuptools"}
    assert names == EXPECTED_DISTRIBUTIONS


async def test_a_published_push_is_consumed_by_the_pipeline(publisher: Path, git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("src/a.py", "x = 1\n")
    head = git_repo.commit("one")
    with EmbeddedNats(tmp_path / "nats") as server:
        bus = Bus(build_broker(server.url))
        env = {"INDEX_FILE_RECENCY": "true"}
        await start_routers(bus, [host(recency_scanner.SERVICE, bootstrap(env), env)])
        try:
            args = [str(publisher), "repo-updated", git_repo.url, "--branch", "main", "--head-sha", head,
                    "--head-commit-date", "2026-03-04T05:06:07+00:00", "--changed", "src/a.py"]  # fmt: skip
            environment = {"PATH": os.environ.get("PATH", ""), "NATS_URL": server.url}
            first = await asyncio.to_thread(subprocess.run, args, env=environment, capture_output=True, text=True)
            again = await asyncio.to_thread(subprocess.run, args, env=environment, capture_output=True, text=True)
            assert first.returncode == 0, first.stderr
            assert "published repo.updated" in first.stdout
            assert "duplicate" in again.stdout  # a retried CI job is stored once
            answer = None
            async for _, event, _ in bus.read(follow=True):  # blocks until the service has answered
                if isinstance(event, FileRecencyComputed):
                    answer = event
                    break
        finally:
            await bus.close()
    assert answer is not None
    assert answer.mode == "incremental"
    assert answer.dates == {"src/a.py": "2026-03-04T05:06:07+00:00"}


def test_without_nats_url_the_publisher_fails_loudly(publisher: Path) -> None:
    done = subprocess.run(
        [str(publisher), "repo-updated", "https://github.com/acme/widgets.git"],
        env={"PATH": os.environ.get("PATH", "")}, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "NATS_URL is not set" in done.stderr


def _push_script(publisher: Path, repo: GitRepo, before: str, after: str, *, forced: bool = False) -> RepoUpdated:
    env = {
        **os.environ,
        "SEXTANT_PUBLISH": str(publisher),
        "PUBLISH_ARGS": "--dry-run",
        "REPO_URL": "https://github.com/acme/widgets.git",
        "PROVIDER": "github",
        "BRANCH": "main",
        "BEFORE": before,
        "AFTER": after,
        "FORCED": "true" if forced else "false",
    }
    done = subprocess.run(
        ["bash", str(ROOT / "examples" / "ci" / "publish-push.sh")],
        cwd=repo.root, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    message = json.loads(done.stdout)
    assert message["subject"] == "sextant.repo.updated." + message["body"]["repo"]["repo_key"]
    import msgspec

    return msgspec.json.decode(json.dumps(message["body"]), type=RepoUpdated)


def test_the_push_script_covers_every_commit_of_the_range(publisher: Path, git_repo: GitRepo) -> None:
    git_repo.write("keep.py", "a = 1\n")
    git_repo.write("old.py", "b = 1\n")
    before = git_repo.commit("base")
    git_repo.write("first.py", "c = 1\n")
    git_repo.commit("first of the push")
    git_repo.remove("old.py")
    git_repo.write("odd\nname.py", "d = 1\n")
    after = git_repo.commit("second of the push")
    event = _push_script(publisher, git_repo, before, after)
    assert event.changed_paths is not None
    assert set(event.changed_paths) == {"first.py", "odd\nname.py"}  # both commits, names intact
    assert event.removed_paths == ["old.py"]
    assert event.head_sha == after
    assert event.repo.provider == "github"


def test_a_new_branch_or_a_forced_push_is_a_full_run(publisher: Path, git_repo: GitRepo) -> None:
    git_repo.write("a.py", "a = 1\n")
    first = git_repo.commit("one")
    git_repo.write("b.py", "b = 1\n")
    second = git_repo.commit("two")
    assert _push_script(publisher, git_repo, "0" * 40, second).changed_paths is None
    assert _push_script(publisher, git_repo, first, second, forced=True).changed_paths is None
    assert _push_script(publisher, git_repo, second, first).changed_paths is None  # history rewritten
    assert _push_script(publisher, git_repo, first, second).changed_paths == ["b.py"]
