"""The indexer service on a real nats-server: FileRecencyComputed in, ChunksIndexed then ChunksEmbedded out."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from sextant.bootstrap import service_spec
from sextant.bus import Bus, EmbeddedNats, Progress, build_broker, start_routers, watch_progress
from sextant.contracts import ChunksEmbedded, ChunksIndexed
from sextant.indexer import dense_service
from sextant.indexer.app import SERVICE, handler_for
from sextant.indexer.dense_stage import DenseStage


async def test_recency_event_yields_chunks_indexed_on_the_stream(harness: Any, git_repo: Any, tmp_path: Path) -> None:
    git_repo.write("app.py", "def main():\n    return 0\n")
    git_repo.write("README.md", "# App\n\nRuns main.\n")
    head = git_repo.commit("seed")
    request = harness.request()
    recency = harness.recency(request, "computed", {"app.py": "2026-01-01T12:00:00Z"})
    with EmbeddedNats(tmp_path / "nats") as server:
        bus = Bus(build_broker(server.url))
        dense = DenseStage(store=harness.deps.store, embedder=harness.deps.embedder)
        specs = [
            service_spec(SERVICE, handler_for(harness.deps)),
            service_spec(dense_service.SERVICE, dense_service.handler_for(dense)),
        ]
        await start_routers(bus, specs)
        reports: list[Progress] = []

        async def collect_progress() -> None:
            async for report in watch_progress(bus, request.run_id):
                reports.append(report)  # noqa: PERF401 - appended live: the task is cancelled, never finishes

        watcher = asyncio.create_task(collect_progress())
        try:
            await asyncio.sleep(0.1)  # the progress subscription is live before the run starts
            start = await bus.last_sequence()
            await bus.publish(recency)
            await bus.publish(recency)  # a duplicate publish is stored once
            indexed: list[ChunksIndexed] = []
            embedded: list[ChunksEmbedded] = []
            deadline = asyncio.get_running_loop().time() + 30
            while not (indexed and embedded):
                assert asyncio.get_running_loop().time() < deadline, "no ChunksIndexed and ChunksEmbedded in time"
                await asyncio.sleep(0.2)
                events = [event async for _, event, _ in bus.read("sextant.chunks.>", after_sequence=start)]
                indexed = [event for event in events if isinstance(event, ChunksIndexed)]
                embedded = [event for event in events if isinstance(event, ChunksEmbedded)]
            await asyncio.sleep(0.3)  # the final progress report is best effort and asynchronous
        finally:
            watcher.cancel()
            await asyncio.gather(watcher, return_exceptions=True)
            await bus.close()
    [event] = indexed
    assert event.run_id == request.run_id
    assert (event.head_sha, event.files_added, event.recency_status) == (head, 2, "computed")
    assert event.chunks_upserted == harness.deps.store.count(harness.ref.repo_key)
    [dense] = embedded
    assert (dense.run_id, dense.complete, dense.points_embedded) == (request.run_id, True, event.chunks_upserted)
    assert harness.deps.store.count_missing_dense(harness.ref.repo_key) == 0
    by_stage = {report.stage: report for report in reports}  # the last report of each stage
    assert (by_stage["indexer"].done, by_stage["indexer"].total) == (2, 2)
    assert by_stage["embedder"].unit == "vectors"
    assert (by_stage["embedder"].done, by_stage["embedder"].total) == (dense.points_total, dense.points_total)
