"""`sextant analyze --no-wait` stops the embedder cleanly; the next run finishes the vectors, each once.

The embedding provider and the language model are one local HTTP server speaking OpenAI's wire
format. The provider answers the first page of embeddings, then holds every later request; the model
answers only once a request is held, so the command is certain to shut down while the embedder
waits on the provider. Nothing is timed: the fakes order the run.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from sextant.analyzer.report_shape.section_titles import SECTION_TITLES

from ..conftest import GitRepo
from ..support.provider_server import ProviderServer
from ..support.wire_formats import openai_chat_completion
from .conftest import SextantRunner

ANSWER = "\n\n".join(f"## {title}\n\nText." for title in (*SECTION_TITLES, "Purpose", "Summary"))
"""Serves as analysis and summary alike (either may ask first)."""
ANSWERED_AT_ONCE = 2
"""Embedding requests answered before the provider starts holding them (one page: 2 points, 1 a call)."""
HOLD_LIMIT_SECONDS = 300.0
"""Only a safety net for a broken run; the test never waits it out when things work."""


class HoldingProvider:
    """OpenAI embeddings and chat; embeddings past the first page wait until ``release``."""

    def __init__(self) -> None:
        self.embedded_texts: list[str] = []
        """Texts of the embedding requests that were answered (a held request's client is gone)."""
        self.embedding_requests = 0
        self.holding = threading.Event()
        self.release = threading.Event()
        self._lock = threading.Lock()

    def answer(self, body: Any) -> Any:
        if "messages" in body:
            self.holding.wait(HOLD_LIMIT_SECONDS)  # the analysis lands only once the embedder is held
            return openai_chat_completion(ANSWER, model="gpt-test")
        with self._lock:
            self.embedding_requests += 1
            held = self.embedding_requests > ANSWERED_AT_ONCE and not self.release.is_set()
        if held:
            self.holding.set()
            self.release.wait(HOLD_LIMIT_SECONDS)
        else:
            with self._lock:
                self.embedded_texts.extend(body["input"])
        vectors = [[float(len(text)), 1.0, 0.0, 0.0] for text in body["input"]]
        return {
            "object": "list",
            "data": [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)],
            "model": body["model"],
            "usage": {"prompt_tokens": 1, "total_tokens": 1},
        }


@pytest.fixture
def holding() -> Iterator[tuple[HoldingProvider, ProviderServer]]:
    provider = HoldingProvider()
    server = ProviderServer(answer=provider.answer)
    server.start()
    try:
        yield provider, server
    finally:
        provider.release.set()
        server.stop()


def test_no_wait_leaves_no_failure_and_the_next_run_embeds_each_point_once(
    sextant: SextantRunner, git_repo: GitRepo, holding: tuple[HoldingProvider, ProviderServer]
) -> None:
    provider, server = holding
    for name in ("orders", "payments", "stock"):
        git_repo.write(f"shop/{name}.py", f'def {name}_total(x: int) -> int:\n    """Sum {name}."""\n    return x\n')
    git_repo.write("README.md", "# Shop\n\nA shop.\n")
    git_repo.commit("code", date="2026-06-01T09:00:00+00:00")
    env = {
        "LLM_PROVIDER": "openai",
        "LLM_BASE_URL": f"{server.url}/v1",
        "LLM_MODEL": "gpt-test",
        "EMBEDDINGS_PROVIDER": "openai",
        "EMBEDDINGS_BASE_URL": f"{server.url}/v1",
        "EMBEDDINGS_MODEL": "fake-embedding",
        "EMBEDDINGS_DIMENSION": "4",
        "EMBEDDINGS_BATCH_SIZE": "1",
        "EMBEDDINGS_CONCURRENCY": "1",
        "EMBEDDER_PAGE_POINTS": "2",
    }

    first = sextant("analyze", str(git_repo.root), "--no-wait", **env)
    assert provider.holding.is_set()  # the command stopped while the embedder was waiting on the provider
    assert "## Purpose" in first.stdout
    for noise in ("embedder failed", "is closed", "Traceback", "WARNING", "ERROR"):
        assert noise not in first.stderr, first.stderr
    assert len(provider.embedded_texts) == ANSWERED_AT_ONCE  # the first page was written, then the rest held

    provider.release.set()
    second = sextant("analyze", str(git_repo.root), **env)
    counts = re.findall(r"vectors for review search: (\d+)/(\d+)", second.stderr)
    assert counts, second.stderr
    done, total = map(int, counts[-1])
    assert done == total
    # Every point embedded exactly once over both runs: the first run's page was not embedded again.
    assert len(provider.embedded_texts) == total
