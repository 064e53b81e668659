"""A restarted runtime resumes from its durable consumers: what was published while it was down is handled."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sextant.bootstrap import bootstrap, host
from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.contracts import FileRecencyComputed, RepoRef, RepoUpdated
from sextant.recency_scanner import app as recency_scanner

from ..support.events import repo_updated

ENV = {"INDEX_FILE_RECENCY": "true"}


def push(run_id: str) -> RepoUpdated:
    return repo_updated(
        RepoRef.for_url("https://example.com/a/b.git"), run_id, changed_paths=["x.py"], head_commit_date="2026-01-01"
    )


async def answered(bus: Bus) -> set[str]:
    return {e.run_id async for _, e, _ in bus.read() if isinstance(e, FileRecencyComputed)}


async def test_events_published_while_down_are_handled_after_restart(tmp_path: Path) -> None:
    with EmbeddedNats(tmp_path / "nats") as server:
        services = [host(recency_scanner.SERVICE, bootstrap(ENV), ENV)]
        first = Bus(build_broker(server.url))
        await start_routers(first, services)
        await first.publish(push("before"))
        for _ in range(100):
            if "before" in await answered(first):
                break
            await asyncio.sleep(0.1)
        await first.close()

        publisher = Bus(build_broker(server.url))
        await publisher.connect()
        await publisher.publish(push("while-down"))
        await asyncio.sleep(0.5)
        assert "while-down" not in await answered(publisher)

        second = Bus(build_broker(server.url))
        await start_routers(second, services)
        for _ in range(100):
            if "while-down" in await answered(second):
                break
            await asyncio.sleep(0.1)
        runs = await answered(second)
        await second.close()
        await publisher.close()
    assert runs == {"before", "while-down"}  # nothing published while down was lost
