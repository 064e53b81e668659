"""What fsync-per-write costs the bus: publish+ack throughput with JetStream `sync_interval: always`
against nats-server's default (fsync every 2 minutes), beside the disk's own fsync rate.

Each mode gets a fresh embedded nats-server on a temp store and publishes N small RepoUpdated events
through `Bus.publish` (JetStream ack awaited, de-duplication on): once one at a time (each ack awaited
before the next publish: the CLI's and a handler's pattern) and once with C publishes in flight (a
burst). The physical limit of the synchronous mode is the disk's fsync rate, measured directly as
4 KiB write+fsync pairs on a file in the same temp directory.

Modes alternate for R rounds (a fresh server each time) and the median of each is printed: this
machine's disk is shared, and its fsync rate moves by 10x from one minute to the next.

    uv run --no-sync python bench/bus/run.py [--events 2000] [--in-flight 64] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from sextant.bus import Bus, EmbeddedNats, build_broker
from sextant.contracts import RepoRef, RepoUpdated, event_id_for, utc_now_iso

REPO = RepoRef.for_url("https://example.com/bench/bus.git")


def events(count: int, tag: str) -> list[RepoUpdated]:
    return [
        RepoUpdated(
            event_id=event_id_for(RepoUpdated, f"{tag}-{index}"),
            run_id=f"{tag}-{index}",
            occurred_at=utc_now_iso(),
            repo=REPO,
        )
        for index in range(count)
    ]


async def publish_rates(url: str, count: int, in_flight: int) -> tuple[float, float]:
    bus = Bus(build_broker(url))
    await bus.connect()
    try:
        sequential = events(count, "seq")
        started = time.perf_counter()
        for event in sequential:
            await bus.publish(event)
        one_at_a_time = count / (time.perf_counter() - started)

        burst = events(count, "burst")
        gate = asyncio.Semaphore(in_flight)

        async def publish(event: RepoUpdated) -> None:
            async with gate:
                await bus.publish(event)

        started = time.perf_counter()
        await asyncio.gather(*(publish(event) for event in burst))
        concurrent = count / (time.perf_counter() - started)
    finally:
        await bus.close()
    return one_at_a_time, concurrent


def fsync_rate(directory: Path, writes: int = 500) -> float:
    block = os.urandom(4096)
    path = directory / "fsync-probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        started = time.perf_counter()
        for _ in range(writes):
            os.write(fd, block)
            os.fsync(fd)
        return writes / (time.perf_counter() - started)
    finally:
        os.close(fd)
        path.unlink()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--in-flight", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    runs: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    disks: list[float] = []
    with tempfile.TemporaryDirectory(prefix="sextant-bench-bus-") as tmp:
        for round_number in range(args.rounds):
            for sync_always in (False, True):
                store = Path(tmp) / f"nats-{round_number}-{sync_always}"
                with EmbeddedNats(store, sync_always=sync_always) as server:
                    runs[sync_always].append(asyncio.run(publish_rates(server.url, args.events, args.in_flight)))
            disks.append(fsync_rate(Path(tmp)))
    default, always = (
        tuple(statistics.median(run[index] for run in runs[mode]) for index in (0, 1)) for mode in (False, True)
    )
    disk = statistics.median(disks)
    print(f"events per mode: {args.events}; burst in flight: {args.in_flight}; median of {args.rounds} rounds")
    print(f"disk write+fsync (4 KiB): {disk:,.0f}/s")
    for label, index in (("one at a time", 0), (f"{args.in_flight} in flight", 1)):
        print(
            f"{label:>14}: default {default[index]:,.0f}/s, sync always {always[index]:,.0f}/s, "
            f"ratio {always[index] / default[index]:.2f}, sync always / disk fsync {always[index] / disk:.2f}"
        )


if __name__ == "__main__":
    main()
