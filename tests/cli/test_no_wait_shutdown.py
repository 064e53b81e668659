"""`sextant analyze --no-wait` stops the embedder cleanly; the next run finishes the vectors, each once.

The embedding provider and the language model are one local HTTP server speaking OpenAI's wire
format (``holding_provider``). It answers the first page of embeddings, then holds every later
request; the model answers only once a request is held, so the command is certain to shut down while
the embedder waits on the provider. Nothing is timed: the fakes order the run.
"""

from __future__ import annotations

import re

from ..conftest import GitRepo
from .conftest import SextantRunner
from .holding_provider import HoldingProvider, held_after_one_page

__all__ = ["held_after_one_page"]

LOG_NOISE = ("embedder failed", "is closed", "Traceback", "WARNING", "ERROR")


def build_shop(git_repo: GitRepo) -> None:
    for name in ("orders", "payments", "stock"):
        git_repo.write(f"shop/{name}.py", f'def {name}_total(x: int) -> int:\n    """Sum {name}."""\n    return x\n')
    git_repo.write("README.md", "# Shop\n\nA shop.\n")
    git_repo.commit("code", date="2026-06-01T09:00:00+00:00")


def test_no_wait_leaves_no_failure_and_the_next_run_embeds_each_point_once(
    sextant: SextantRunner, git_repo: GitRepo, held_after_one_page: tuple[HoldingProvider, dict[str, str]]
) -> None:
    provider, env = held_after_one_page
    build_shop(git_repo)

    first = sextant("analyze", str(git_repo.root), "--no-wait", **env)
    assert provider.holding.is_set()  # the command stopped while the embedder was waiting on the provider
    assert "## Purpose" in first.stdout
    for noise in LOG_NOISE:
        assert noise not in first.stderr, first.stderr
    assert len(provider.embedded_texts) == provider.answered_at_once  # the first page was written, then held

    provider.release.set()
    second = sextant("analyze", str(git_repo.root), **env)
    counts = re.findall(r"vectors for review search: (\d+)/(\d+)", second.stderr)
    assert counts, second.stderr
    done, total = map(int, counts[-1])
    assert done == total
    # Every point embedded exactly once over both runs: the first run's page was not embedded again.
    assert len(provider.embedded_texts) == total
