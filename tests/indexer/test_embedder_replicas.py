"""Two embedder replicas on one durable, on a real nats-server: every missing vector is embedded once.

Each replica has its own dense stage (its own in-process lock, its own HTTP client) over the shared
store, as two processes would; the embedding provider is a local HTTP server speaking OpenAI's wire
format that records every text it is asked to embed. Several ChunksIndexed of one repository are
published at once, so both replicas run passes over the same missing points; the repository lease
makes the second pass wait and find only what the first left.
"""

from __future__ import annotations

import asyncio
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec

from sextant.bootstrap import service_spec
from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.contracts import ChunksEmbedded, ChunksIndexed, event_id_for
from sextant.embedding import OpenAICompatibleEmbedder
from sextant.indexer import dense_service
from sextant.indexer.dense_stage import DenseStage

from ..support.provider_server import ProviderServer

RUNS = 4
"""ChunksIndexed events of the one repository, handled by whichever replica pulls them."""
DEADLINE_SECONDS = 120.0


class CountingProvider:
    """OpenAI embeddings that remember every text asked for."""

    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self.texts: list[str] = []
        self._lock = threading.Lock()

    def answer(self, body: Any) -> Any:
        with self._lock:
            self.texts.extend(body["input"])
        vector = [1.0] + [0.0] * (self.dimension - 1)
        return {
            "object": "list",
            "data": [{"object": "embedding", "index": i, "embedding": vector} for i in range(len(body["input"]))],
            "model": body["model"],
            "usage": {"prompt_tokens": 1, "total_tokens": 1},
        }


async def test_two_replicas_embed_each_missing_vector_once(harness: Any, git_repo: Any, tmp_path: Path) -> None:
    for number in range(24):
        git_repo.write(f"pkg/module_{number}.py", f"def function_{number}(x: int) -> int:\n    return x + {number}\n")
    git_repo.commit("modules")
    indexed = await harness.run()
    store = harness.deps.store
    repo_key = harness.ref.repo_key
    points = store.count_missing_dense(repo_key)
    assert points == store.count(repo_key) > 8

    provider = CountingProvider(harness.deps.embedder.dimension)
    server = ProviderServer(answer=provider.answer)
    server.start()

    def replica(bus: Bus) -> Any:
        embedder = OpenAICompatibleEmbedder(
            model="fake-embedding", dimension=provider.dimension, max_chars=2000, batch_size=2,
            base_url=f"{server.url}/v1", concurrency=1,
        )  # fmt: skip
        stage = DenseStage(store=store, embedder=embedder, page_points=4)
        return service_spec(dense_service.SERVICE, dense_service.handler_for(stage))

    runs = [
        msgspec.structs.replace(
            indexed, run_id=f"replica-run-{n}", event_id=event_id_for(ChunksIndexed, f"replica-run-{n}")
        )
        for n in range(RUNS)
    ]
    try:
        with EmbeddedNats(tmp_path / "nats") as nats:
            first, second = Bus(build_broker(nats.url)), Bus(build_broker(nats.url))
            await start_routers(first, [replica(first)])
            await start_routers(second, [replica(second)])
            try:
                start = await first.last_sequence()
                for event in runs:
                    await first.publish(event)
                embedded = await _embedded(first, start, len(runs))
            finally:
                await first.close()
                await second.close()
    finally:
        server.stop()

    assert {event.run_id for event in embedded} == {event.run_id for event in runs}
    assert all(event.complete for event in embedded)
    assert store.count_missing_dense(repo_key) == 0
    assert len(provider.texts) == points, Counter(provider.texts).most_common(3)  # each point asked for once
    assert sum(event.points_embedded for event in embedded) == points


async def _embedded(bus: Bus, after: int, count: int) -> list[ChunksEmbedded]:
    found: list[ChunksEmbedded] = []

    async def follow() -> None:
        async for _, event, _ in bus.read("sextant.chunks.>", follow=True, after_sequence=after):
            if isinstance(event, ChunksEmbedded):
                found.append(event)
                if len(found) == count:
                    return

    await asyncio.wait_for(follow(), DEADLINE_SECONDS)
    return found
