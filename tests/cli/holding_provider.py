"""A local OpenAI-format provider (embeddings and chat) that holds embedding requests on demand.

The CLI tests use it to stop a command while the embedder waits on the provider, or to see a
command's output before its vectors are written: nothing is timed, the provider orders the run.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from sextant.analyzer.report_shape.section_titles import SECTION_TITLES

from ..support.provider_server import ProviderServer
from ..support.wire_formats import openai_chat_completion, openai_embeddings

ANSWER = "\n\n".join(f"## {title}\n\nText." for title in (*SECTION_TITLES, "Purpose", "Summary"))
"""Serves as analysis and summary alike (either may ask first)."""
HOLD_LIMIT_SECONDS = 300.0
"""Only a safety net for a broken run; the tests never wait it out when things work."""


class HoldingProvider:
    """OpenAI embeddings and chat; embedding requests past the first ``answered_at_once`` wait for ``release``.

    A chat request waits until an embedding request is held, so an analysis lands only while the
    embedder is busy.
    """

    def __init__(self, answered_at_once: int) -> None:
        self.answered_at_once = answered_at_once
        self.embedded_texts: list[str] = []
        """Texts of the embedding requests that were answered (a held request's client is gone)."""
        self.embedding_requests = 0
        self.holding = threading.Event()
        self.release = threading.Event()
        self._lock = threading.Lock()

    def answer(self, body: Any) -> Any:
        if "messages" in body:
            self.holding.wait(HOLD_LIMIT_SECONDS)
            return openai_chat_completion(ANSWER, model="gpt-test")
        with self._lock:
            self.embedding_requests += 1
            held = self.embedding_requests > self.answered_at_once and not self.release.is_set()
        if held:
            self.holding.set()
            self.release.wait(HOLD_LIMIT_SECONDS)
        else:
            with self._lock:
                self.embedded_texts.extend(body["input"])
        vectors = [[float(len(text)), 1.0, 0.0, 0.0] for text in body["input"]]
        return openai_embeddings(vectors, model=body["model"], tokens=1)

    def env(self, url: str) -> dict[str, str]:
        """The CLI's settings for this provider: model and embeddings, one text per call, two per page."""
        return {
            "LLM_PROVIDER": "openai",
            "LLM_BASE_URL": f"{url}/v1",
            "LLM_MODEL": "gpt-test",
            "EMBEDDINGS_PROVIDER": "openai",
            "EMBEDDINGS_BASE_URL": f"{url}/v1",
            "EMBEDDINGS_MODEL": "fake-embedding",
            "EMBEDDINGS_DIMENSION": "4",
            "EMBEDDINGS_BATCH_SIZE": "1",
            "EMBEDDINGS_CONCURRENCY": "1",
            "EMBEDDER_PAGE_POINTS": "2",
        }


def serve(provider: HoldingProvider) -> Iterator[tuple[HoldingProvider, dict[str, str]]]:
    """Run ``provider`` on a local server; yields it and the CLI's settings for it."""
    server = ProviderServer(answer=provider.answer)
    server.start()
    try:
        yield provider, provider.env(server.url)
    finally:
        provider.release.set()
        server.stop()


@pytest.fixture
def held_after_one_page() -> Iterator[tuple[HoldingProvider, dict[str, str]]]:
    """Answers the first page of embeddings (2 points, 1 a call), then holds."""
    yield from serve(HoldingProvider(answered_at_once=2))


@pytest.fixture
def held_from_the_start() -> Iterator[tuple[HoldingProvider, dict[str, str]]]:
    """Holds every embedding request until released."""
    yield from serve(HoldingProvider(answered_at_once=0))
