"""Time limits and error scrubbing of the git runner (a git alias that sleeps stands in for a hang)."""

from __future__ import annotations

import os
import time

import pytest

from sextant.gitsource.access import RepoSource, git_environment
from sextant.gitsource.errors import GitCommandError, GitTimeoutError
from sextant.gitsource.git_process import BackgroundGit, run_git, stream_git

HANG = ["-c", "alias.hang=!sleep 30", "hang"]


@pytest.fixture
def env() -> dict[str, str]:
    return git_environment(RepoSource(os.getcwd()))


def test_run_git_times_out_and_kills_the_group(env: dict[str, str]) -> None:
    started = time.monotonic()
    with pytest.raises(GitTimeoutError, match="timed out"):
        run_git(HANG, env=env, secrets=(), timeout=0.5)
    assert time.monotonic() - started < 10


def test_stream_git_times_out(env: dict[str, str]) -> None:
    started = time.monotonic()
    with pytest.raises(GitTimeoutError), stream_git(HANG, env=env, secrets=(), timeout=0.5) as output:
        for _ in output.chunks():
            pass
    assert time.monotonic() - started < 10


def test_background_git_times_out(env: dict[str, str]) -> None:
    with BackgroundGit(HANG, env=env, secrets=(), timeout=0.5) as background, pytest.raises(GitTimeoutError):
        list(background.output_chunks())


def test_errors_are_scrubbed(env: dict[str, str]) -> None:
    with pytest.raises(GitCommandError) as caught:
        run_git(["rev-parse", "--verify", "sekret-token-value"], env=env, secrets=("sekret-token-value",), timeout=10)
    assert "sekret-token-value" not in str(caught.value)
    assert "sekret-token-value" not in caught.value.stderr
    assert caught.value.returncode != 0
