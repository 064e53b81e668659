"""Faults of the bus itself, against a real nats-server: duplicates, replays, a slow handler, a backlog,
an evolved schema, a 5 MiB body, and poison of every shape.

The stand-in stage is the production ``consume`` wiring with a recording handler. Each test checks
the invariant: every published message is handled exactly once and acked, or parked with a reason;
the durable ends with nothing pending or unacknowledged.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from sextant.bus import Bus, DeliveryPolicy, EmbeddedNats, build_broker
from sextant.bus.leases import Leases, holder_is_gone, lease_key
from sextant.bus.settings import CLAIM_HEADER, RUN_ID_HEADER
from sextant.contracts import (
    STREAM_NAME,
    Event,
    EventParked,
    FileRecencyComputed,
    RepoRef,
    RepoUpdated,
    StageFailed,
    encode_event,
    subject_for,
)

from ..support.bus import FAST, collect, start_consumer, unsettled
from ..support.events import event, repo_updated
from .conftest import resident_memory, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.bus, pytest.mark.timeout(300)]

REPO = RepoRef.for_url("https://example.com/acme/faults.git")
SUBJECT = subject_for(repo_updated(REPO))


@pytest.fixture
def own_nats(tmp_path: Path) -> Iterator[str]:
    """A server per test (a tenth of a second): a new durable reads the whole stream, so it holds only this test's."""
    with EmbeddedNats(tmp_path / "nats") as server:
        yield server.url


class Recorder:
    """A handler that notes every run it is given (and how often), optionally answering with outputs."""

    def __init__(self, answer: type[Event] | None = None, pause: float = 0.0) -> None:
        self.runs: Counter[str] = Counter()
        self.events: list[RepoUpdated] = []
        self.answer = answer
        self.pause = pause

    async def __call__(self, received: RepoUpdated) -> Sequence[Event]:
        self.runs[received.run_id] += 1
        self.events.append(received)
        if self.pause:
            await asyncio.sleep(self.pause)
        if self.answer is StageFailed:
            return [event(StageFailed, received.repo, received.run_id, "echo", stage="echo", reason="echo")]
        return []


async def drained(bus: Bus, durable: str) -> bool:
    return await unsettled(bus, durable) == (0, 0)


async def wait_drained(bus: Bus, durable: str, what: str) -> None:
    give_up = asyncio.get_running_loop().time() + 120
    while not await drained(bus, durable):
        assert asyncio.get_running_loop().time() < give_up, f"never drained: {what}"
        await asyncio.sleep(0.1)


async def test_a_publish_repeated_concurrently_is_stored_and_handled_once(own_nats: str) -> None:
    recorder = Recorder()
    bus = await start_consumer(own_nats, recorder, durable="dedup")
    once = repo_updated(REPO, "run-dup")
    stored = await asyncio.gather(*(bus.publish(once) for _ in range(20)))
    await bus.publish(repo_updated(REPO, "run-after"))  # handled after the duplicates would have been

    await wait_until(lambda: recorder.runs["run-after"] == 1, "the event after the duplicates is handled")
    await wait_drained(bus, "dedup", "the duplicates")
    assert stored.count(True) == 1
    assert [e for e in await collect(bus) if isinstance(e, RepoUpdated)] == [once, *recorder.events[1:]]
    assert recorder.runs == {"run-dup": 1, "run-after": 1}
    await bus.close()


async def test_replaying_the_stream_to_a_new_consumer_adds_no_duplicate_output(own_nats: str) -> None:
    """A stage's durable deleted and recreated (a replay from the start) re-handles every event; its
    outputs carry the same ids, so the stream still holds one output per input."""
    runs = [f"run-{n}" for n in range(25)]
    first = Recorder(answer=StageFailed)
    bus = await start_consumer(own_nats, first, durable="replayed")
    for run in runs:
        await bus.publish(repo_updated(REPO, run))
    await wait_until(lambda: sum(first.runs.values()) == len(runs), "every event handled once")
    await wait_drained(bus, "replayed", "the first pass")
    await bus.close()
    client = Bus(build_broker(own_nats))
    await client.connect()
    await client.js.delete_consumer(STREAM_NAME, "replayed")

    replay = Recorder(answer=StageFailed)
    again = await start_consumer(own_nats, replay, durable="replayed")
    await wait_until(lambda: sum(replay.runs.values()) == len(runs), "every event handled again")
    await wait_drained(again, "replayed", "the replay")

    outputs = Counter(e.run_id for e in await collect(client) if isinstance(e, StageFailed))
    assert first.runs == replay.runs == Counter(runs)
    assert outputs == Counter(runs)  # one output per input, across both passes
    await again.close()
    await client.close()


async def test_a_handler_slower_than_the_ack_wait_is_run_once(own_nats: str) -> None:
    """The in-progress heartbeat keeps the delivery alive: no redelivery, no second run."""
    # Heartbeats every 0.2 s against a 2 s ack wait: a loaded machine may stall the loop for a second
    # and still keep the delivery alive, so only a missing heartbeat could cause a redelivery.
    slow = DeliveryPolicy(ack_wait_seconds=2.0, heartbeat_seconds=0.2, max_deliver=3, backoff_seconds=(0.1,))
    recorder = Recorder(pause=3 * slow.ack_wait_seconds)
    bus = await start_consumer(own_nats, recorder, durable="slow", delivery=slow)
    await bus.publish(repo_updated(REPO, "run-slow"))
    await wait_until(lambda: recorder.runs["run-slow"] >= 1, "the slow handler starts")
    await wait_drained(bus, "slow", "the slow delivery")

    info = await bus.js.consumer_info(STREAM_NAME, "slow")
    assert recorder.runs == {"run-slow": 1}
    assert info.num_redelivered == 0
    assert not [e for e in await collect(bus) if isinstance(e, EventParked | StageFailed)]
    await bus.close()


BACKLOG = 2_000
MEMORY_BOUND = 100 * 1024 * 1024
"""A consumer pulls one message at a time: working through a backlog holds no more than a few."""


async def test_a_backlog_is_worked_off_exactly_once_in_bounded_memory(own_nats: str) -> None:
    publisher = Bus(build_broker(own_nats))
    await publisher.connect()
    runs = [f"run-{n:05d}" for n in range(BACKLOG)]
    # A hundred repositories: the stream keeps at most 1,000 events per event type and repository.
    repos = [RepoRef.for_url(f"https://example.com/acme/repo-{n}.git") for n in range(100)]
    for start in range(0, BACKLOG, 100):
        batch = zip(repos, runs[start : start + 100], strict=True)
        await asyncio.gather(*(publisher.publish(repo_updated(repo, run)) for repo, run in batch))

    before = resident_memory()
    peak = before
    recorder = Recorder()
    bus = await start_consumer(own_nats, recorder, durable="backlog")

    def handled_all() -> bool:
        nonlocal peak
        peak = max(peak, resident_memory())
        return sum(recorder.runs.values()) >= BACKLOG

    await wait_until(handled_all, f"the backlog of {BACKLOG} handled")
    await wait_drained(bus, "backlog", "the backlog")
    assert recorder.runs == Counter(runs)  # each exactly once
    assert peak - before < MEMORY_BOUND, f"the consumer grew by {(peak - before) >> 20} MiB"
    await bus.close()
    await publisher.close()


async def test_an_event_from_a_newer_and_an_older_publisher_is_accepted(own_nats: str) -> None:
    """An unknown extra field (a newer schema) and a missing optional field (an older one) decode."""
    recorder = Recorder()
    bus = await start_consumer(own_nats, recorder, durable="evolved")
    body = json.loads(encode_event(repo_updated(REPO, "run-evolved", head_sha="a" * 40)))
    body["added_in_a_later_version"] = {"nested": [1, 2, 3]}
    body["repo"]["mirror_hint"] = "later"
    del body["force"], body["changed_paths"]
    await bus.broker.publish(json.dumps(body).encode(), SUBJECT, stream=STREAM_NAME, headers={"Nats-Msg-Id": "evo"})

    await wait_until(lambda: recorder.runs["run-evolved"] == 1, "the evolved event is handled")
    await wait_drained(bus, "evolved", "the evolved event")
    [received] = recorder.events
    assert (received.head_sha, received.force, received.changed_paths) == ("a" * 40, False, None)
    assert received.repo == REPO
    await bus.close()


async def test_a_five_mib_output_travels_by_claim_check_to_the_next_stage(own_nats: str) -> None:
    dates: dict[str, str | None] = {
        f"src/module_{i:06d}/a_long_file_name.py": "2026-01-01T00:00:00Z" for i in range(100_000)
    }

    async def scan(request: RepoUpdated) -> Sequence[Event]:
        return [event(FileRecencyComputed, request.repo, request.run_id, request.event_id, request=request,
                      status="computed", dates=dates)]  # fmt: skip

    received: list[FileRecencyComputed] = []

    async def index(computed: FileRecencyComputed) -> Sequence[Event]:
        received.append(computed)
        return []

    scanner = await start_consumer(own_nats, scan, durable="scanner")
    indexer = await start_consumer(own_nats, index, durable="indexer", event_type=FileRecencyComputed)
    await scanner.publish(repo_updated(REPO, "run-big"))
    await wait_until(lambda: len(received) == 1, "the next stage receives the 5 MiB event")
    await wait_drained(scanner, "scanner", "the scanner")
    await wait_drained(indexer, "indexer", "the indexer")

    [stored] = [raw async for _, e, raw in scanner.read() if isinstance(e, FileRecencyComputed)]
    assert len(encode_event(received[0])) > 5 * 1024 * 1024
    assert received[0].dates == dates
    assert stored.headers
    assert CLAIM_HEADER in stored.headers
    assert len(stored.data) < 1024 * 1024
    await scanner.close()
    await indexer.close()


def _unencodable_output(request: RepoUpdated) -> FileRecencyComputed:
    # A non-UTF-8 file name decoded with surrogateescape: JSON cannot carry it.
    return event(FileRecencyComputed, request.repo, request.run_id, request.event_id, request=request,
                 status="computed", dates={b"caf\xe9.py".decode("utf-8", "surrogateescape"): None})  # fmt: skip


RAW_POISON = {
    "deeply nested JSON": (b"[" * 200_000 + b"]" * 200_000, {}),
    "truncated JSON": (b'{"type": "repo.updated", "event_id": "x", "repo": {"url": "/nowhere"', {}),
    "not UTF-8": (b'{"type": "repo.updated", "run_id": "\xff\xfe"}', {}),
    "an unknown event type": (json.dumps({"type": "repo.exploded", "event_id": "e1"}).encode(), {}),
    "a wrong field type": (json.dumps({"type": "repo.updated", "event_id": "e2", "run_id": 7, "repo": 1}).encode(), {}),
    "a dangling claim check": (b"{}", {CLAIM_HEADER: "0" * 64}),
}
HANDLED_POISON = {"run-raises": "the handler raises every time", "run-unencodable": "its output cannot be encoded"}


async def test_poison_of_every_shape_is_accounted_for_and_the_next_event_handled(own_nats: str) -> None:
    received: Counter[str] = Counter()

    async def handle(request: RepoUpdated) -> Sequence[Event]:
        received[request.run_id] += 1
        if request.run_id == "run-raises":
            raise RuntimeError("boom")
        if request.run_id == "run-unencodable":
            return [_unencodable_output(request)]
        return []

    bus = await start_consumer(own_nats, handle, durable="poisoned")
    sequences: dict[int, str] = {}
    for name, (body, headers) in RAW_POISON.items():
        run = f"run-{len(sequences)}"
        ack = await bus.js.publish(SUBJECT, body, headers={RUN_ID_HEADER: run, "Nats-Msg-Id": name, **headers})
        sequences[ack.seq] = name
    for run, name in HANDLED_POISON.items():
        ack = await bus.js.publish(SUBJECT, encode_event(repo_updated(REPO, run)), headers={"Nats-Msg-Id": run})
        sequences[ack.seq] = name
    await bus.publish(repo_updated(REPO, "run-good"))

    def parked_by_sequence(events: list[Event | None]) -> dict[int | None, EventParked]:
        return {e.stream_sequence: e for e in events if isinstance(e, EventParked)}

    async def all_parked() -> bool:
        return set(parked_by_sequence(await collect(bus, "sextant.event.parked.>"))) >= set(sequences)

    give_up = asyncio.get_running_loop().time() + 120
    while not await all_parked():
        assert asyncio.get_running_loop().time() < give_up, "not every poison message was parked"
        await asyncio.sleep(0.2)
    await wait_until(lambda: received["run-good"] == 1, "the good event after the poison is handled")
    await wait_drained(bus, "poisoned", "the poison")

    events = await collect(bus)
    parked = parked_by_sequence(events)
    failed = Counter(e.run_id for e in events if isinstance(e, StageFailed))
    for sequence, name in sequences.items():
        assert parked[sequence].reason, f"{name}: parked without a reason"
        assert parked[sequence].consumer == "poisoned"
    assert len(parked) == len(sequences)  # each exactly once, nothing else parked
    assert received == {"run-raises": FAST.max_deliver, "run-unencodable": 1, "run-good": 1}
    assert failed == {"run-raises": 1, "run-unencodable": 1}  # the handled ones also fail their stage
    # Reading the whole stream survives every one of them (`sextant events` reads it this way).
    assert sum(1 for e in events if e is None) == len(RAW_POISON)
    await bus.close()


HOLD_A_LEASE = """
import asyncio, sys
import nats
from sextant.bus.leases import Leases

async def main() -> None:
    client = await nats.connect(sys.argv[1])
    async with Leases(client.jetstream(), ttl_seconds=3600).hold("embedder/killed-holder"):
        print("held", flush=True)
        await asyncio.sleep(3600)

asyncio.run(main())
"""


@pytest.mark.process
async def test_a_lease_whose_holder_was_killed_is_taken_over_without_waiting_out_its_age(own_nats: str) -> None:
    """A host killed mid-embedding held its repository's lease; the restarted host on the same machine
    must not wait for the lease's age limit (an hour here, a minute in production) to embed again."""
    holder = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HOLD_A_LEASE, own_nats, stdout=asyncio.subprocess.PIPE
    )
    assert holder.stdout is not None
    assert (await asyncio.wait_for(holder.stdout.readline(), 120)).strip() == b"held"
    bus = Bus(build_broker(own_nats))
    await bus.connect()
    kv = await bus.js.key_value("sextant-leases")
    held = (await kv.get(lease_key("embedder/killed-holder"))).value or b""
    assert not holder_is_gone(held.decode())  # a live holder keeps its lease

    holder.send_signal(signal.SIGKILL)
    await holder.wait()
    leases = Leases(bus.js, ttl_seconds=3600)
    async with asyncio.timeout(60):  # far below the lease's age limit: only a takeover gets it
        async with leases.hold("embedder/killed-holder") as lease:
            assert not lease.lost
    await bus.close()
