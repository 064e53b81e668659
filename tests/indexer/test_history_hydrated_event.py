"""The indexer service publishes HistoryHydrated once the history fetch that follows a first run ends.

A real nats-server, a real blob-less mirror over file://: the run's ChunksIndexed says a fetch
follows, and the fetch's news is stored after it, carrying the run, the head and the outcome.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sextant.bootstrap import service_spec
from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.contracts import AnyEvent, ChunksIndexed, HistoryHydrated
from sextant.indexer import index_repository
from sextant.indexer.app import SERVICE, handler_for
from sextant.indexer.history_hydration import history_fetches_settled

from .test_history_hydration import two_versions

pytestmark = pytest.mark.bus


async def test_a_first_runs_fetch_ends_with_history_hydrated_after_its_chunks_indexed(
    harness: Any, git_repo: Any, tmp_path: Path
) -> None:
    head = two_versions(git_repo)
    request = harness.request()
    with EmbeddedNats(tmp_path / "nats") as server:
        bus = Bus(build_broker(server.url))
        await start_routers(bus, [service_spec(SERVICE, handler_for(harness.deps))])
        try:
            await bus.publish(harness.recency(request))
            stored: list[tuple[int, AnyEvent]] = []
            async for sequence, event, _ in bus.read("sextant.>", follow=True):
                if event is not None and event.run_id == request.run_id:
                    stored.append((sequence, event))
                if isinstance(event, HistoryHydrated):
                    break
            await history_fetches_settled()
        finally:
            await bus.close()

    [(indexed_at, indexed)] = [(s, e) for s, e in stored if isinstance(e, ChunksIndexed)]
    [(hydrated_at, hydrated)] = [(s, e) for s, e in stored if isinstance(e, HistoryHydrated)]
    assert isinstance(indexed, ChunksIndexed)
    assert indexed.history_fetch_follows
    assert hydrated_at > indexed_at  # a reader finds the run before the news of its history
    assert isinstance(hydrated, HistoryHydrated)
    assert (hydrated.repo, hydrated.head_sha, hydrated.outcome, hydrated.note) == (request.repo, head, "complete", None)
    assert hydrated.fetched == hydrated.missing == 1  # the old orders.py


async def test_a_later_run_waits_for_its_history_and_announces_nothing(harness: Any, git_repo: Any) -> None:
    two_versions(git_repo)
    heard: list[HistoryHydrated] = []

    async def listen(event: HistoryHydrated) -> None:
        heard.append(event)

    first = harness.request()
    indexed = await index_repository(first, harness.recency(first), harness.deps, None, listen)
    await history_fetches_settled()
    git_repo.commit_files("three", {"shop/orders.py": "def submit_order(now):\n    pass\n"})
    later = harness.request()
    again = await index_repository(later, harness.recency(later), harness.deps, None, listen)
    await history_fetches_settled()

    assert indexed.history_fetch_follows
    assert not again.history_fetch_follows  # its fetch of the history since came before its ChunksIndexed
    assert [event.run_id for event in heard] == [first.run_id]
