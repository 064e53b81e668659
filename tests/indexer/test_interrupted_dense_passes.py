"""More ordered shutdowns of one dense pass than max_deliver: nothing parked, each vector embedded once.

A real nats-server, the embedded store, and a local HTTP server speaking OpenAI's embeddings format.
Each "start" is a fresh bus hosting the embedder service, as a new ``sextant analyze --no-wait`` would
be. In each of them the provider answers one request (one page is written), then holds the next, and
the test closes the bus while it is held: the pass abandons that call and gives the delivery back.
After more such starts than the consumer's delivery limit, a normal start must finish the vectors,
asking the provider for exactly the texts the store still lacks. Nothing is timed: the provider orders
the run.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from pathlib import Path
from typing import Any

from sextant.bootstrap import service_spec
from sextant.bus import Bus, DeliveryPolicy, EmbeddedNats, build_broker, start_routers
from sextant.chunkstore import dense_text_of
from sextant.contracts import ChunksEmbedded, EventParked, StageFailed
from sextant.embedding import OpenAICompatibleEmbedder
from sextant.indexer import dense_service
from sextant.indexer.dense_stage import DenseStage

from ..support.provider_server import ProviderServer
from ..support.wire_formats import openai_embeddings

STARTS_INTERRUPTED = DeliveryPolicy().max_deliver + 2
DEADLINE_SECONDS = 120.0
"""Only a safety net: a start that never receives the request (it was parked) fails here."""


class InterruptingProvider:
    """OpenAI embeddings; per start, answers ``answers`` requests (None: all) and holds the rest."""

    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self.answered: list[list[str]] = []
        """Texts answered, one list per start (a held request's client has gone: not answered)."""
        self.held = threading.Event()
        self._answers_left: int | None = None
        self._release = threading.Event()
        self._lock = threading.Lock()

    def begin_start(self, answers: int | None) -> None:
        with self._lock:
            self._release.set()  # the previous start's held request may return (to nobody)
            self._release = threading.Event()
            self._answers_left = answers
            self.answered.append([])
            self.held.clear()

    def finish(self) -> None:
        self._release.set()

    def answer(self, body: Any) -> Any:
        with self._lock:
            hold = self._answers_left is not None and self._answers_left <= 0
            if not hold:
                if self._answers_left is not None:
                    self._answers_left -= 1
                self.answered[-1].extend(body["input"])
            release = self._release
        if hold:
            self.held.set()
            release.wait(DEADLINE_SECONDS)
        vectors = [[1.0] + [0.0] * (self.dimension - 1) for _ in body["input"]]
        return openai_embeddings(vectors, model=body["model"], tokens=1)


async def test_shutdowns_beyond_max_deliver_leave_nothing_parked_and_each_vector_embedded_once(
    harness: Any, git_repo: Any, tmp_path: Path
) -> None:
    for number in range(30):
        git_repo.write(f"pkg/module_{number}.py", f"def function_{number}(x: int) -> int:\n    return x + {number}\n")
    git_repo.commit("modules")
    indexed = await harness.run()
    store = harness.deps.store
    repo_key = harness.ref.repo_key
    points = store.count(repo_key)
    assert store.count_missing_dense(repo_key) == points > 2 * (STARTS_INTERRUPTED + 1)

    provider = InterruptingProvider(harness.deps.embedder.dimension)
    server = ProviderServer(answer=provider.answer)
    server.start()

    async def start(nats_url: str) -> Bus:
        bus = Bus(build_broker(nats_url))
        embedder = OpenAICompatibleEmbedder(
            model="fake-embedding", dimension=provider.dimension, max_chars=2000, batch_size=2,
            base_url=f"{server.url}/v1", concurrency=1,
        )  # fmt: skip
        stage = DenseStage(store=store, embedder=embedder, page_points=2)
        await start_routers(bus, [service_spec(dense_service.SERVICE, dense_service.handler_for(stage))])
        return bus

    try:
        with EmbeddedNats(tmp_path / "nats") as nats:
            for number in range(STARTS_INTERRUPTED):
                provider.begin_start(answers=1)
                bus = await start(nats.url)
                if number == 0:
                    await bus.publish(indexed)
                reached = await asyncio.to_thread(provider.held.wait, DEADLINE_SECONDS)
                assert reached, f"start {number + 1} never got the dense pass's delivery"
                await bus.close()  # an ordered shutdown while the provider holds a request

            still_missing = sorted(dense_text_of(chunk.payload) for chunk in store.scroll_missing_dense(repo_key))
            provider.begin_start(answers=None)
            bus = await start(nats.url)
            try:
                embedded = await asyncio.wait_for(_result(bus), DEADLINE_SECONDS)
                events = [event async for _, event, _ in bus.read()]
            finally:
                await bus.close()
    finally:
        provider.finish()
        server.stop()

    assert isinstance(embedded, ChunksEmbedded), embedded
    assert embedded.run_id == indexed.run_id
    assert embedded.complete
    assert store.count_missing_dense(repo_key) == 0
    assert not [event for event in events if isinstance(event, EventParked | StageFailed)]
    # The interrupted starts each wrote their one page; the last one asked for exactly what was left.
    assert [len(texts) for texts in provider.answered[:-1]] == [2] * STARTS_INTERRUPTED
    assert sorted(provider.answered[-1]) == still_missing
    assert embedded.points_embedded == len(still_missing) == points - 2 * STARTS_INTERRUPTED
    every_text = Counter(text for texts in provider.answered for text in texts)
    assert sum(every_text.values()) == points, every_text.most_common(3)  # no vector embedded twice


async def _result(bus: Bus) -> ChunksEmbedded | EventParked:
    async for _, event, _ in bus.read(follow=True):
        if isinstance(event, ChunksEmbedded | EventParked):
            return event
    raise AssertionError("the stream ended")
