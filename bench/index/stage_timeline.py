"""When each stage of one first phase runs, on which thread, for how much CPU: where the run serializes.

Run: `uv run --no-sync python bench/index/stage_timeline.py --repo /path/to/repo.git [--parse-process]`.
Indexes the repository once from an empty cache (recency skipped, no history fetch: the first phase as
a blob-less mirror's first run does it) and prints, per stage, how often it ran, its wall and thread
CPU seconds, the share of the run's wall time it was running, and a coarse timeline (one character per
slice of the run's wall time: the stage running then). A probe thread spins beside the run and counts
its turns per slice: where it gets far fewer than alone, something held the GIL without letting go.

Stages timed (by wrapping the index run's own functions): `read` (blob reads), `parse` (in a thread of
this process), `submit` / `answer` (the parse process: a request sent, an answer's wait), `sparse`,
`date` (symbol dates), `points` (ids, payloads, the stored dicts), `upsert` (the store's write), and the
delete of replaced points.

Last measured (celery, 775 files, 15,441 chunks, three rounds alternated, load 3.9-4.9): before the
read-ahead, every blob was read before the first parse and the parse process's requests were paced
by the writes (its first write ~1.1 s after the reads); after, the index run with the worker 2.7-2.9
s wall (4.2-6.7 s before), in process 4.3-5.0 s (5.1-5.8 s), CPU within the noise of before
(docs/indexing.md, "Where the first phase serialized").
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from index_inputs import request_for, warm_up_request

from sextant.chunkstore import collection_name
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.embedding import LocalMiniLM
from sextant.gitsource.access import RepoSource
from sextant.gitsource.mirror import RepoMirror
from sextant.indexer import DiscoveryRules, IndexerDeps, IndexerSettings, index_repository, pipeline
from sextant.indexer.parse_process import shared_parse_process

SLICES = 100
MARKS = {
    "read": "r",
    "parse": "p",
    "submit": "s",
    "sparse": "e",
    "date": "d",
    "upsert": "U",
    "write": "w",
    "delete": "x",
}


@dataclass(frozen=True)
class Span:
    stage: str
    thread: str
    start: float
    end: float
    cpu: float


SPANS: list[Span] = []


def _timed(stage: str, function: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start, cpu = time.perf_counter(), time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            SPANS.append(
                Span(stage, threading.current_thread().name, start, time.perf_counter(), time.thread_time() - cpu)
            )

    return wrapper


def _instrument(store: EdgeChunkStore, mirrors: RepoMirror) -> None:
    pipeline._parse_files = _timed("parse", pipeline._parse_files)  # type: ignore[attr-defined]
    pipeline._with_symbol_dates = _timed("date", pipeline._with_symbol_dates)  # type: ignore[attr-defined]
    pipeline._write = _timed("write", pipeline._write)  # type: ignore[attr-defined]
    store.upsert = _timed("upsert", store.upsert)  # type: ignore[method-assign]
    store.delete_points = _timed("delete", store.delete_points)  # type: ignore[method-assign]
    mirrors.read_blobs = _timed("read", mirrors.read_blobs)  # type: ignore[method-assign]
    worker = shared_parse_process()
    worker.submit = _timed("submit", worker.submit)  # type: ignore[method-assign]
    original_encode = pipeline.encode_files

    async def encode_files(files: Any, sparse: Any) -> Any:
        sparse.encode_documents = _timed("sparse", type(sparse).encode_documents.__get__(sparse))
        return await original_encode(files, sparse)

    pipeline.encode_files = encode_files  # type: ignore[attr-defined]


class Probe(threading.Thread):
    """Spins and counts its turns per slice of time: few turns = the GIL was held elsewhere."""

    def __init__(self) -> None:
        super().__init__(name="gil-probe", daemon=True)
        self.turns: list[tuple[float, int]] = []
        self.stop = threading.Event()

    def run(self) -> None:
        while not self.stop.is_set():
            end = time.perf_counter() + 0.01
            turns = 0
            while time.perf_counter() < end:
                turns += 1
            self.turns.append((end, turns))


@dataclass(frozen=True)
class Measured:
    """One index run's figures."""

    files: int
    chunks: int
    load: float
    started: float
    wall: float
    cpu: float
    git_cpu: float
    worker_cpu: float


def _settings(home: Path, args: argparse.Namespace) -> IndexerSettings:
    return IndexerSettings(
        mirrors_dir=home / "mirrors",
        store_path=home / "qdrant",
        rules=DiscoveryRules(root=args.root),
        allow_local_repos=True,
        history_fetch_bytes=0,
        parse_process="true" if args.parse_process else "false",
    )


async def measure(args: argparse.Namespace, url: str, home: Path, probe: Probe) -> tuple[Measured, list[int]]:
    """One index run from an empty store (the mirror cloned first), every stage timed."""
    model = LocalMiniLM()
    settings = _settings(home, args)
    store = EdgeChunkStore(settings.store_path, collection_name(model.model_id, model.dimension), model.dimension)
    mirrors = RepoMirror(settings.mirrors_dir)
    await asyncio.to_thread(mirrors.sync, RepoSource(url=url))
    if args.parse_process:
        # Started and warmed once, as a service does: its imports are no run's cost.
        await asyncio.to_thread(shared_parse_process().submit(warm_up_request()).result)
    _instrument(store, mirrors)
    deps = IndexerDeps(settings=settings, store=store, embedder=model, mirrors=mirrors)  # type: ignore[arg-type]
    request, recency = request_for(url, "timeline")
    alone = [1]
    if args.probe:
        probe.start()
        await asyncio.sleep(0.3)
        alone = [turns for _, turns in probe.turns[-20:]]
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    git_cpu = children.ru_utime + children.ru_stime
    load = os.getloadavg()[0]
    started, cpu = time.perf_counter(), time.process_time()
    worker_cpu = shared_parse_process().cpu_seconds
    indexed = await index_repository(request, recency, deps)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    git_cpu = children.ru_utime + children.ru_stime - git_cpu
    worker_cpu = shared_parse_process().cpu_seconds - worker_cpu
    probe.stop.set()
    if args.probe:
        probe.join()
    store.close()
    measured = Measured(indexed.files_added, indexed.chunks_upserted, load, started, wall, cpu, git_cpu, worker_cpu)
    return measured, alone


def print_stages(run: Measured) -> None:
    """The totals per stage, then the timeline."""
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    for span in SPANS:
        total = totals[span.stage]
        total[0] += 1
        total[1] += span.end - span.start
        total[2] += span.cpu
    for stage, (count, seconds, stage_cpu) in sorted(totals.items(), key=lambda item: -item[1][1]):
        print(
            f"  {stage:8} {int(count):5} calls  wall {seconds:6.2f} s  CPU {stage_cpu:6.2f} s  "
            f"{100 * seconds / run.wall:5.1f}% of the run"
        )
    width = run.wall / SLICES
    for stage, mark in MARKS.items():
        row = [" "] * SLICES
        for span in SPANS:
            if span.stage == stage:
                first, last = int((span.start - run.started) / width), int((span.end - run.started) / width)
                for index in range(first, min(SLICES, last + 1)):
                    row[index] = mark
        if any(cell != " " for cell in row):
            print(f"  {stage:8} |{''.join(row)}|")


def print_probe(run: Measured, probe: Probe, alone: list[int]) -> None:
    """The probe's turns per slice of the run, against its turns alone."""
    baseline = sorted(alone)[len(alone) // 2] or 1
    width = run.wall / SLICES
    row = []
    for index in range(SLICES):
        low, high = run.started + index * width, run.started + (index + 1) * width
        inside = [turns for end, turns in probe.turns if low <= end < high]
        share = (sum(inside) / len(inside)) / baseline if inside else 0.0
        row.append(" .:-=+*#%@"[min(9, int(share * 10))])
    print(f"  probe    |{''.join(row)}| (its turns vs alone: ' ' none, '@' all)")


async def main(args: argparse.Namespace, url: str) -> None:
    probe = Probe()
    with tempfile.TemporaryDirectory(prefix="sextant-bench-timeline-") as tmp:
        run, alone = await measure(args, url, Path(tmp), probe)
    print(
        f"{run.files} files, {run.chunks} chunks, load {run.load:.1f}: wall {run.wall:.2f} s, CPU "
        f"{run.cpu + run.git_cpu + run.worker_cpu:.2f} s (this process {run.cpu:.2f} s, the probe's spinning "
        f"included; git {run.git_cpu:.2f} s; parse process {run.worker_cpu:.2f} s)"
    )
    print_stages(run)
    if args.probe:
        print_probe(run, probe, alone)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--root", default=None)
    parser.add_argument("--parse-process", action="store_true")
    parser.add_argument("--probe", action="store_true", help="spin a probe thread (it takes a core's share)")
    arguments = parser.parse_args()
    asyncio.run(main(arguments, Path(arguments.repo).absolute().as_uri()))
    sys.exit(0)
