"""Waiting for a run: its result, its failure, or a deadline that names the stage that went quiet."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from nats.js.api import ConsumerConfig

from sextant.bus import Bus, RunFailedError, RunStalledError, await_events, await_result
from sextant.bus.run_wait import subject_matches
from sextant.contracts import STREAM_NAME, ChunksIndexed, Event, FileRecencyComputed, RepoUpdated

from ..support.events import file_recency_computed
from .test_bus_real_server import repo_updated, start_consumer


def recency_for(event: RepoUpdated) -> FileRecencyComputed:
    return file_recency_computed(event, dates={})


async def test_the_result_of_the_run_ends_the_wait(nats_url: str) -> None:
    async def scan(event: RepoUpdated) -> Sequence[Event]:
        return [recency_for(event)]

    bus = await start_consumer(nats_url, scan)
    seen: list[str] = []
    result = await await_result(
        bus, repo_updated("run-ok"), FileRecencyComputed, on_event=lambda e: seen.append(e.run_id), quiet_seconds=60
    )
    assert result.run_id == "run-ok"
    assert seen == ["run-ok", "run-ok"]  # the request, then the result
    await bus.close()


async def test_a_parked_message_of_the_run_fails_the_wait(nats_url: str) -> None:
    async def scan(event: RepoUpdated) -> Sequence[Event]:
        bad = {b"\xff.py".decode("utf-8", "surrogateescape"): "2026-01-01T00:00:00Z"}
        return [FileRecencyComputed(**{**_fields(recency_for(event)), "dates": bad})]

    bus = await start_consumer(nats_url, scan)
    with pytest.raises(RunFailedError, match="cannot be encoded"):
        await await_result(bus, repo_updated("run-bad"), FileRecencyComputed, quiet_seconds=60)
    await bus.close()


async def test_a_bus_where_nothing_consumes_the_request_says_so(bus: Bus) -> None:
    with pytest.raises(RunStalledError, match=r"nothing on this bus consumes repo\.updated") as stalled:
        await await_result(bus, repo_updated("run-alone"), FileRecencyComputed, quiet_seconds=0.5)
    assert stalled.value.quiet_consumers == ()


async def test_a_consumer_nobody_serves_is_named_as_the_quiet_stage(bus: Bus) -> None:
    # The durable exists (a service ran once) but no process pulls from it now.
    await bus.js.add_consumer(
        STREAM_NAME, ConsumerConfig(durable_name="recency_scanner", filter_subject="sextant.repo.updated.*")
    )
    with pytest.raises(RunStalledError, match=r"quiet stage recency_scanner \(1 waiting") as stalled:
        await await_result(bus, repo_updated("run-unserved"), FileRecencyComputed, quiet_seconds=0.5)
    assert stalled.value.quiet_consumers == ("recency_scanner",)


async def test_waiting_for_a_later_event_names_it_and_the_stage_that_went_quiet(bus: Bus) -> None:
    # The run's result is already out (as `sextant index` has printed it); its follow-up never comes.
    await bus.js.add_consumer(
        STREAM_NAME, ConsumerConfig(durable_name="indexer", filter_subject="sextant.recency.computed.*")
    )
    after = await bus.last_sequence()
    shown = recency_for(repo_updated("run-later"))
    await bus.publish(shown)
    with pytest.raises(RunStalledError, match=r"\(waiting for chunks\.indexed\): quiet stage indexer \(1 waiting"):
        await await_events(bus, shown, (ChunksIndexed,), after=after, quiet_seconds=0.5)


@pytest.mark.parametrize(
    ("pattern", "subject", "matches"),
    [
        ("sextant.repo.updated.*", "sextant.repo.updated.k", True),
        ("sextant.>", "sextant.repo.updated.k", True),
        ("sextant.repo.*.k", "sextant.repo.updated.other", False),
        ("sextant.repo.updated", "sextant.repo.updated.k", False),
        ("sextant.repo.updated.k.>", "sextant.repo.updated.k", False),
    ],
)
def test_subject_filters_match_like_nats(pattern: str, subject: str, matches: bool) -> None:
    assert subject_matches(pattern, subject) is matches


def _fields(event: FileRecencyComputed) -> dict[str, object]:
    return {name: getattr(event, name) for name in event.__struct_fields__}
