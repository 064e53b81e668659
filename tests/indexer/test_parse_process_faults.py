"""A parse worker that fails never hangs a run and never loses a file: its requests are redone by a new
worker, or parsed in the indexer's process when no worker can start, or they fail the run by name.

Every worker here is the real ``python -P -m sextant.indexer.parse_process`` child. The faults come from
outside it: a ``kill -9`` or ``SIGSTOP`` of its pid, or the ``sitecustomize`` module of
``faulty_parse_worker/`` on the ``PYTHONPATH`` the worker inherits, which stands between the worker and
its stdout (garbage or half an answer, an exit before the first answer or at start, a banner).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import pickle
import shutil
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sextant.bootstrap import service_spec
from sextant.bus import Bus, EmbeddedNats, RunFailedError, await_result, build_broker, start_routers
from sextant.contracts import ChunksIndexed, EventParked, StageFailed
from sextant.embedding import SparseEncoder
from sextant.indexer.app import SERVICE, handler_for
from sextant.indexer.discovery import DiscoveryRules
from sextant.indexer.parse_process import (
    RETRY_AFTER_REQUESTS,
    RETRY_ROUNDS,
    START_ATTEMPTS,
    BlobToParse,
    ParsedChunks,
    ParseProcess,
    ParseProcessError,
    ParseRequest,
)

from ..support.bus import FAST
from ..support.processes import is_gone
from .conftest import IndexHarness, make_deps, open_store
from .test_parse_process import UpsertRecordingStore, comparable, varied_repository, wait_for

pytestmark = [pytest.mark.process, pytest.mark.faults]

FAULTY_WORKER = Path(__file__).parent / "faulty_parse_worker"
FILES = 100
"""Files beside the varied ones: more slices than the run sends ahead, so a fault finds some unanswered."""
GIVE_UP_SECONDS = 120.0
"""How long a request may take before the test fails (never a timing check)."""


@pytest.fixture
def parse_process() -> Iterator[ParseProcess]:
    """A parse worker client of the test's own, so a fault never reaches other tests' worker."""
    client = ParseProcess()
    yield client
    client.close()


def faulty_workers(monkeypatch: pytest.MonkeyPatch, folder: Path, fault: str, once: Path | None = None) -> Path:
    """Every parse worker started from now on misbehaves (only the first one, with ``once``).

    Returns:
        The fault file: removing it makes the workers started afterwards sound.
    """
    folder.mkdir()
    shutil.copy(FAULTY_WORKER / "sitecustomize.py", folder / "sitecustomize.py")
    chosen = folder / "fault"
    chosen.write_text(fault + ("" if once is None else f"\n{once}"), encoding="utf-8")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")])))
    return chosen


class BothWays:
    """The same repository indexed by a parse worker (``parse_process``) and in the run's own process."""

    def __init__(self, git_repo: Any, tmp_path: Path, embedder: Any, parse_process: ParseProcess) -> None:
        self.stores: list[UpsertRecordingStore] = []
        self.harnesses: list[IndexHarness] = []
        for name, choice in (("worker", "true"), ("in-process", "false")):
            store = UpsertRecordingStore(open_store(tmp_path / name, embedder))
            deps = make_deps(tmp_path / name, embedder, store, DiscoveryRules(max_file_bytes=4000))  # type: ignore[arg-type]
            deps.settings = dataclasses.replace(deps.settings, parse_process=choice)
            deps.parse_process = parse_process
            self.stores.append(store)
            self.harnesses.append(IndexHarness(git_repo, deps))

    @property
    def worker(self) -> IndexHarness:
        return self.harnesses[0]

    async def assert_same_points(self) -> None:
        """Index in process too, and compare every point the two ways wrote."""
        by_worker, in_place = self.stores
        local = await self.harnesses[1].run()
        assert local.failed_files == [] or all("parse failed" not in file.reason for file in local.failed_files)
        assert sorted(map(comparable, by_worker.points.values())) == sorted(map(comparable, in_place.points.values()))
        assert by_worker.points

    def close(self) -> None:
        for store in self.stores:
            store.inner.close()


@pytest.fixture
def both_ways(git_repo: Any, tmp_path: Path, hashing_embedder: Any, parse_process: ParseProcess) -> Iterator[BothWays]:
    varied_repository(git_repo)
    for number in range(FILES):  # several slices, so more than one is in flight when the worker fails
        git_repo.write(f"pkg/module_{number}.py", f"def handler_{number}(event):\n    return event + {number}\n")
    git_repo.commit("seed")
    pair = BothWays(git_repo, tmp_path, hashing_embedder, parse_process)
    yield pair
    pair.close()


@pytest.mark.parametrize("fault", ["garbage-answer", "truncated-answer", "die-on-answer"])
async def test_a_worker_that_fails_its_first_answer_is_replaced_and_the_run_is_whole(  # noqa: PLR0917 - fixtures
    both_ways: BothWays,
    parse_process: ParseProcess,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    fault: str,
) -> None:
    faulty_workers(monkeypatch, tmp_path / "faulty", fault, once=tmp_path / "first-worker")
    with caplog.at_level(logging.WARNING, logger="sextant.indexer.parse_process"):
        indexed = await both_ways.worker.run()
    assert (tmp_path / "first-worker").exists(), "the fault was never armed"
    assert indexed.files_added == len(both_ways.worker.index())
    await both_ways.assert_same_points()
    said = " ".join(record.getMessage() for record in caplog.records)
    expected = {
        "garbage-answer": "could not be read",
        "truncated-answer": "output ended",
        "die-on-answer": "exit code 9",
    }
    assert "the parse process ended" in said
    assert expected[fault] in said
    assert not parse_process.parses_in_place


@pytest.mark.parametrize("fault", ["exit-at-start", "banner"])
async def test_when_no_worker_can_start_the_run_parses_in_its_own_process(  # noqa: PLR0917 - fixtures
    both_ways: BothWays,
    parse_process: ParseProcess,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    fault: str,
) -> None:
    faulty_workers(monkeypatch, tmp_path / "faulty", fault)
    with caplog.at_level(logging.WARNING, logger="sextant.indexer.parse_process"):
        indexed = await both_ways.worker.run()
    assert parse_process.parses_in_place
    assert parse_process.pid is None
    assert indexed.files_added == len(both_ways.worker.index())
    await both_ways.assert_same_points()
    assert "parsing in this process" in " ".join(record.getMessage() for record in caplog.records)


async def test_files_two_workers_die_on_fail_the_run_by_name_and_the_next_run_is_whole(
    both_ways: BothWays, parse_process: ParseProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fault = faulty_workers(monkeypatch, tmp_path / "faulty", "die-on-answer")  # as if the files crashed the parser
    with pytest.raises(
        ParseProcessError, match=r"died 2 times on the same files .*INDEX_PARSE_PROCESS=false"
    ) as failed:
        await both_ways.worker.run()
    assert ".py" in str(failed.value)
    assert not parse_process.parses_in_place  # the workers did start: nothing to give up on
    fault.unlink()
    indexed = await both_ways.worker.run()
    assert indexed.failed_files == [] or all("parse failed" not in file.reason for file in indexed.failed_files)
    await both_ways.assert_same_points()


async def test_through_the_bus_files_two_workers_die_on_end_the_run_with_a_failure_naming_them(
    both_ways: BothWays, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    faulty_workers(monkeypatch, tmp_path / "faulty", "die-on-answer")
    harness = both_ways.worker
    request = harness.request()
    with EmbeddedNats(tmp_path / "nats") as server:
        bus = Bus(build_broker(server.url), delivery=FAST)  # three deliveries, then StageFailed
        await start_routers(bus, [service_spec(SERVICE, handler_for(harness.deps))])
        try:
            with pytest.raises(RunFailedError) as failed:
                await await_result(bus, harness.recency(request), ChunksIndexed, quiet_seconds=GIVE_UP_SECONDS)
        finally:
            await bus.close()
    # The run's waiter hears the parking record or the StageFailed first (the bus publishes both).
    failure = failed.value.event
    assert isinstance(failure, StageFailed | EventParked)
    assert failure.run_id == request.run_id
    assert "ParseProcessError: the parse process died 2 times on the same files" in failure.reason
    assert "INDEX_EXCLUDE" in failure.reason
    assert "pkg/module_0.py" in str(failed.value)  # what the person reads names the files


async def test_a_worker_killed_mid_run_is_replaced_and_the_run_is_whole(
    both_ways: BothWays, parse_process: ParseProcess
) -> None:
    harness = both_ways.worker
    killed: list[int] = []

    def kill_once(progress: Any) -> None:
        if progress.phase == "indexing" and progress.files_done and not killed and parse_process.pid is not None:
            killed.append(parse_process.pid)
            os.kill(parse_process.pid, signal.SIGKILL)

    from sextant.indexer import index_repository

    request = harness.request()
    indexed = await index_repository(request, harness.recency(request), harness.deps, kill_once)
    assert killed
    wait_for(lambda: is_gone(killed[0]), "the killed worker is gone")
    assert indexed.files_added == len(harness.index())
    await both_ways.assert_same_points()
    assert parse_process.pid != killed[0]


def test_a_stopped_worker_is_ended_after_its_answer_limit_and_a_new_one_answers() -> None:
    client = ParseProcess(answer_seconds=1.0)
    files = [BlobToParse("a.py", b"def f():\n    return 1\n")]
    request = ParseRequest(files, 1 << 20, 2000, pickle.dumps(SparseEncoder()))
    try:
        client.submit(request).result(GIVE_UP_SECONDS)  # the worker is ready: what follows is no slow start
        stopped = client.pid
        assert stopped is not None
        os.kill(stopped, signal.SIGSTOP)  # alive, holding the request, answering nothing
        reply = client.submit(request).result(GIVE_UP_SECONDS)
        assert isinstance(reply.outcomes[0], ParsedChunks)
        wait_for(lambda: is_gone(stopped), "the stopped worker was ended")
        assert client.pid not in {None, stopped}
    finally:
        client.close()


def test_a_worker_slower_to_start_than_the_answer_limit_is_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every worker takes 3 s to start, longer than its answer limit.
    faulty_workers(monkeypatch, tmp_path / "faulty", "slow-start")
    client = ParseProcess(answer_seconds=1.0)
    files = [BlobToParse("a.py", b"def f():\n    return 1\n")]
    try:
        reply = client.submit(ParseRequest(files, 1 << 20, 2000, pickle.dumps(SparseEncoder()))).result(GIVE_UP_SECONDS)
        assert isinstance(reply.outcomes[0], ParsedChunks)
        assert not client.parses_in_place
        assert client.pid is not None
    finally:
        client.close()


def _one_file_request() -> ParseRequest:
    files = [BlobToParse("a.py", b"def f():\n    return 1\n")]
    return ParseRequest(files, 1 << 20, 2000, pickle.dumps(SparseEncoder()))


def _said(caplog: pytest.LogCaptureFixture) -> str:
    return "\n".join(record.getMessage() for record in caplog.records)


def test_a_long_running_indexer_gets_the_worker_back_after_a_count_of_requests_once_the_cause_is_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fault = faulty_workers(monkeypatch, tmp_path / "faulty", "exit-at-start")
    client = ParseProcess()
    try:
        with caplog.at_level(logging.INFO, logger="sextant.indexer.parse_process"):
            assert isinstance(client.submit(_one_file_request()).result(GIVE_UP_SECONDS).outcomes[0], ParsedChunks)
            assert client.parses_in_place
            assert f"parsing in this process; trying it again after {RETRY_AFTER_REQUESTS} requests" in _said(caplog)
            fault.unlink()  # the cause went away (a package reinstalled, a disk freed)
            for _ in range(RETRY_AFTER_REQUESTS - 1):  # the first request was parsed in place too
                client.submit(_one_file_request()).result(GIVE_UP_SECONDS)
                assert client.pid is None, "a worker was tried again before its count of requests"
            reply = client.submit(_one_file_request()).result(GIVE_UP_SECONDS)
        assert isinstance(reply.outcomes[0], ParsedChunks)
        assert client.pid is not None
        assert not client.parses_in_place
        said = _said(caplog)
        assert f"trying the parse process again after {RETRY_AFTER_REQUESTS} requests" in said
        assert "the parse process started again (retry 1): parsing in it" in said
        assert len((tmp_path / "faulty" / "starts").read_text().split()) == START_ATTEMPTS + 1
    finally:
        client.close()


def test_a_worker_that_never_starts_is_tried_again_a_bounded_number_of_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    faulty_workers(monkeypatch, tmp_path / "faulty", "exit-at-start")
    client = ParseProcess()
    try:
        with caplog.at_level(logging.INFO, logger="sextant.indexer.parse_process"):
            for _ in range((RETRY_ROUNDS + 3) * RETRY_AFTER_REQUESTS):
                reply = client.submit(_one_file_request()).result(GIVE_UP_SECONDS)
                assert isinstance(reply.outcomes[0], ParsedChunks)
        assert client.parses_in_place
        assert client.retries == RETRY_ROUNDS
        assert len((tmp_path / "faulty" / "starts").read_text().split()) == START_ATTEMPTS + RETRY_ROUNDS
        said = _said(caplog)
        assert f"failed to start again (retry {RETRY_ROUNDS} of {RETRY_ROUNDS})" in said
        assert said.rstrip().endswith("parsing in this process; from now on (no more retries)")
    finally:
        client.close()
