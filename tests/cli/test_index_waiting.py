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
