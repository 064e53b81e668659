"""An index run leaves its blob-less mirror hydrated with the source files' past blobs, unless turned off."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from sextant.gitsource.access import RepoSource
from sextant.gitsource.history_access import open_history
from sextant.gitsource.history_blobs import history_present, missing_source_blobs
from sextant.indexer import IndexerSettings


def two_versions(git_repo: Any) -> str:
    git_repo.commit_files("one", {"shop/orders.py": "def place_order():\n    pass\n", "README.md": "# Shop\n"})
    return str(git_repo.commit_files("two", {"shop/orders.py": "def submit_order():\n    pass\n"}))


async def test_a_run_hydrates_its_mirror_before_chunks_indexed(harness: Any, git_repo: Any) -> None:
    head = two_versions(git_repo)

    indexed = await harness.run()

    git_dir = harness.deps.mirrors.mirror_dir(RepoSource(git_repo.url, branch="main"))
    env = open_history(git_dir).env
    assert indexed.head_sha == head
    assert history_present(git_dir, head, env=env, timeout=30)  # done when ChunksIndexed is out
    assert missing_source_blobs(git_dir, head, env=env, timeout=30) == []


async def test_a_budget_of_zero_turns_the_fetch_off(harness: Any, git_repo: Any) -> None:
    head = two_versions(git_repo)
    harness.deps = dataclasses.replace(
        harness.deps, settings=dataclasses.replace(harness.deps.settings, history_fetch_bytes=0)
    )

    await harness.run()

    git_dir = harness.deps.mirrors.mirror_dir(RepoSource(git_repo.url, branch="main"))
    env = open_history(git_dir).env
    assert not history_present(git_dir, head, env=env, timeout=30)
    assert len(missing_source_blobs(git_dir, head, env=env, timeout=30)) == 1  # the old orders.py


def test_the_budget_is_read_from_the_environment(tmp_path: Path) -> None:
    env = {"SEXTANT_HOME": str(tmp_path)}
    assert IndexerSettings.from_env(env).history_fetch_bytes == 64 * 1024 * 1024
    assert IndexerSettings.from_env({**env, "INDEX_HISTORY_FETCH_BYTES": "0"}).history_fetch_bytes == 0
