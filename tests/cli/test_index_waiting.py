"""`sextant index` prints its result the moment the payloads are stored, then follows the vectors.

The embedding provider holds every request until the test releases it (``holding_provider``), so
the order is certain without timing: the result is read from the command's output while the
vectors cannot have been written, and `--no-wait` returns with the provider still holding.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from ..conftest import GitRepo
from .conftest import SextantRunner
from .holding_provider import HoldingProvider, held_from_the_start
from .test_no_wait_shutdown import LOG_NOISE, build_shop

__all__ = ["held_from_the_start"]


def test_index_prints_at_once_then_the_vectors_and_no_wait_returns_at_once(
    sextant: SextantRunner,
    sextant_env: dict[str, str],
    git_repo: GitRepo,
    tmp_path: Path,
    held_from_the_start: tuple[HoldingProvider, dict[str, str]],
) -> None:
    provider, settings = held_from_the_start
    build_shop(git_repo)
    env = {**sextant_env, **settings}
    command = [sys.executable, "-m", "sextant.cli", "index", str(git_repo.root)]

    no_wait = sextant("index", str(git_repo.root), "--no-wait", **settings)
    assert no_wait.stdout.startswith("indexed ")
    assert "--no-wait" in no_wait.stderr
    for noise in LOG_NOISE:
        assert noise not in no_wait.stderr, no_wait.stderr

    log = tmp_path / "index.stderr"
    with log.open("w") as stderr:
        waiting = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=stderr, text=True)
        try:
            assert waiting.stdout is not None
            first_line = waiting.stdout.readline()
            assert first_line.startswith("indexed "), first_line
            assert waiting.poll() is None  # still waiting: the provider has not embedded one vector yet
            provider.release.set()
            assert waiting.wait(timeout=180) == 0
        finally:
            if waiting.poll() is None:
                waiting.kill()
    counts = re.findall(r"vectors for review search: (\d+)/(\d+)", log.read_text())
    assert counts, log.read_text()
    done, total = map(int, counts[-1])
    assert done == total > 0


VECTORS_TICK = re.compile(r"  vectors for review search: 0/\d+, still working \(\d+ s since it last moved\)\n")


def test_a_log_hears_from_a_held_embedder_every_ten_seconds(
    sextant_env: dict[str, str], git_repo: GitRepo, held_from_the_start: tuple[HoldingProvider, dict[str, str]]
) -> None:
    provider, settings = held_from_the_start
    build_shop(git_repo)
    command = [sys.executable, "-m", "sextant.cli", "index", str(git_repo.root)]
    waiting = subprocess.Popen(
        command, env={**sextant_env, **settings}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    heard: list[str] = []
    try:
        assert waiting.stderr is not None
        # No terminal: the vectors wait for the provider, which answers nothing until released, so the
        # only lines that can come are the ones saying the run still works. A slow machine may also say
        # it before the vectors (a quiet 10 s while indexing): read on until the vectors' own tick.
        while not any(VECTORS_TICK.fullmatch(line) for line in heard):
            line = waiting.stderr.readline()
            assert line, "".join(heard)
            heard.append(line)
        provider.release.set()
        assert waiting.wait(timeout=180) == 0
    finally:
        provider.release.set()
        if waiting.poll() is None:
            waiting.kill()
    assert provider.holding.is_set()
    assert sum("vectors for review search: 0/" in line for line in heard) >= 2, heard  # the figure, then the tick
