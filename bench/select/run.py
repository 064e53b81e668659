"""Selection over 10k and 100k chunk payloads against the raw cost of scrolling the same payloads.

Builds a real embedded store (qdrant-edge, on disk), one repository of N chunks plus a neighbour
repository in the same collection, then times, on the same warm store:

- raw scroll: every payload of the repository through `EdgeChunkStore.scroll_payloads` (page 256),
  decoded into ChunkPayload and dropped: the floor any selection must pay;
- selection: `select_analysis_chunks(store, repo, 80)` (and 40), the scroll plus all the rules;
- pure core: `select_from_payloads` over payloads already in memory (the rules alone);
- both selections from one scroll (`select_for_limits`, what the selector does per run);
- the analyzer's evidence pass (`gather_evidence`, doc-claim check included), which streams.

Target: selection <= 1.5x raw scroll. Peak memory is measured in separate runs with tracemalloc
(Python allocations only; the engine's own memory is not in it), plus the process's ru_maxrss;
for comparison, the peak of holding every payload in a list (what streaming avoids).

    uv run --no-sync python bench/select/run.py [--sizes 10000 100000] [--dimension 64] [--rounds 5]
"""

from __future__ import annotations

import argparse
import gc
import random
import resource
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from sextant.analyzer.evidence.gather import gather_evidence
from sextant.analyzer.evidence.inventory import InventoryCollector
from sextant.analyzer.evidence.manifests import ManifestCollector
from sextant.analyzer.evidence.security_scan import SecurityCollector
from sextant.analyzer.evidence.symbols import SymbolCollector
from sextant.chunkstore import ChunkPayload, ChunkPoint, SparseVector, point_id
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.doc_claims import CodeFactsCollector
from sextant.doc_claims.sources.doc_texts import DocTextCollector
from sextant.selection import (
    ANALYSIS_LIMIT,
    SUMMARY_LIMIT,
    select_analysis_chunks,
    select_for_limits,
    select_from_payloads,
)

REPO = "bench-repo"
NEIGHBOUR = "bench-neighbour"
TOP_DIRS = [f"pkg{index:02d}" for index in range(24)] + ["docs", "tests", "scripts", "examples"]
TEXT = ("    value = compute(previous, options)  # a line of plausible source code\n" * 14)[:1000]


def repository(chunks: int, repo_key: str, seed: int) -> Iterator[ChunkPayload]:
    """Payloads shaped like a real repository: ~1 KB texts, 1-12 chunks per file, a quarter docs,
    28 top-level directories, dates over three years with 5% undated, a README and a manifest."""
    rng = random.Random(seed)
    yield from _file(repo_key, "README.md", 6, "2024-03-01T10:00:00Z")
    yield from _file(repo_key, "pyproject.toml", 1, "2026-01-10T09:00:00+01:00")
    made, number = 7, 0
    while made < chunks:
        top = rng.choice(TOP_DIRS)
        extension = ".md" if top == "docs" or rng.random() < 0.15 else ".py"
        path = f"{top}/mod{number % 40}/file{number}{extension}"
        count = min(rng.randint(1, 12), chunks - made)
        date = None if rng.random() < 0.05 else f"{rng.randint(2023, 2026)}-{rng.randint(1, 12):02d}-15"
        yield from _file(repo_key, path, count, date)
        made += count
        number += 1


def _file(repo_key: str, path: str, count: int, date: str | None) -> Iterator[ChunkPayload]:
    doc = path.endswith(".md")
    for index in range(count):
        yield ChunkPayload(
            repo_key=repo_key,
            path=path,
            blob_sha=f"{hash(path) & 0xFFFFFFFF:040x}",
            kind="doc" if doc else "code",
            language="markdown" if doc else "python",
            symbol=f"section_{index}" if doc else f"function_{index}",
            symbol_type="section" if doc else "function",
            parent=None if doc else "Module",
            start_line=1 + 40 * index,
            end_line=40 + 40 * index,
            text=TEXT,
            indexed_at="2026-06-01T00:00:00Z",
            last_modified_at=date,
        )


def build_store(directory: Path, chunks: int, dimension: int) -> EdgeChunkStore:
    """Load the repository and a neighbour a tenth its size into a fresh store, then optimise."""
    store = EdgeChunkStore(directory, f"sextant_chunks__bench__{dimension}", dimension)
    dense = [1.0 / dimension] * dimension
    batch: list[ChunkPoint] = []
    sources = (repository(chunks, REPO, seed=1), repository(chunks // 10, NEIGHBOUR, seed=2))
    for payload in (payload for source in sources for payload in source):
        point = point_id(payload.repo_key, payload.path, payload.symbol, payload.start_line, payload.window)
        sparse = SparseVector(indices=[payload.start_line % 997, 5000 + len(payload.path)], values=[1.0, 1.0])
        batch.append(ChunkPoint(id=point, dense=dense, sparse=sparse, payload=payload))
        if len(batch) == 1024:
            store.upsert(batch)
            batch = []
    store.upsert(batch)
    store.optimize()
    return store


def drain(store: EdgeChunkStore) -> int:
    """The raw scroll: read and drop every payload of the repository."""
    count = 0
    for _ in store.scroll_payloads(REPO, page_size=256):
        count += 1
    return count


Timing = tuple[float, float]
"""(wall seconds, CPU seconds of this process, all threads)."""


def timed(action: Callable[[], object], rounds: int) -> list[Timing]:
    """Wall and CPU times of `rounds` runs, with garbage collection between runs, not inside them.

    CPU time is reported beside wall time because the bench shares two cores with other work:
    wall time then measures the neighbours as much as the code.
    """
    times = []
    for _ in range(rounds):
        gc.collect()
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return times


def time_pure_core(store: EdgeChunkStore, rounds: int) -> list[Timing]:
    """The rules alone: selection over payloads already decoded and held in memory."""
    in_memory = list(store.scroll_payloads(REPO))
    return timed(lambda: select_from_payloads(in_memory, ANALYSIS_LIMIT), rounds)


def peak_python_memory(action: Callable[[], object]) -> int:
    """Peak bytes of Python allocations while `action` runs."""
    gc.collect()
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


EVIDENCE_PARTS: dict[str, Callable[[], Any]] = {
    "code facts (doc claims)": CodeFactsCollector,
    "doc texts (doc claims)": DocTextCollector,
    "symbols": SymbolCollector,
    "inventory": InventoryCollector,
    "manifests": ManifestCollector,
    "security": SecurityCollector,
}
"""What the evidence pass keeps while it streams: each collector fed the whole scroll alone."""


def evidence_part_peaks(store: EdgeChunkStore) -> dict[str, int]:
    """Peak Python bytes of each evidence collector, fed every payload and then built, alone."""

    def feed(make: Callable[[], Any]) -> None:
        collector = make()
        for payload in store.scroll_payloads(REPO):
            collector.add(payload)
        collector.build()

    return {name: peak_python_memory(lambda make=make: feed(make)) for name, make in EVIDENCE_PARTS.items()}


def run(chunks: int, dimension: int, rounds: int) -> None:
    """Build one store and print its figures."""
    with tempfile.TemporaryDirectory(prefix="sextant-bench-select-") as folder:
        start = time.perf_counter()
        store = build_store(Path(folder), chunks, dimension)
        built = time.perf_counter() - start
        try:
            seen = drain(store)  # warm the engine's caches before any timing
            raw: list[Timing] = []
            analysis: list[Timing] = []
            summary: list[Timing] = []
            for _ in range(rounds):  # interleaved, so drift on a shared machine hits all three alike
                raw += timed(lambda: drain(store), 1)
                analysis += timed(lambda: select_analysis_chunks(store, REPO, ANALYSIS_LIMIT), 1)
                summary += timed(lambda: select_analysis_chunks(store, REPO, SUMMARY_LIMIT), 1)
            both = timed(
                lambda: select_for_limits(store.scroll_payloads(REPO), [ANALYSIS_LIMIT, SUMMARY_LIMIT]), rounds
            )
            core = time_pure_core(store, rounds)
            raw_peak = peak_python_memory(lambda: drain(store))
            list_peak = peak_python_memory(lambda: list(store.scroll_payloads(REPO)))
            select_peak = peak_python_memory(lambda: select_analysis_chunks(store, REPO, ANALYSIS_LIMIT))
            both_peak = peak_python_memory(
                lambda: select_for_limits(store.scroll_payloads(REPO), [ANALYSIS_LIMIT, SUMMARY_LIMIT])
            )
            # One run, under tracemalloc (which slows it): the evidence pass is the slow part of the bench.
            evidence_started = (time.perf_counter(), time.process_time())
            evidence_peak = peak_python_memory(lambda: gather_evidence(store.scroll_payloads(REPO), None))
            evidence = [(time.perf_counter() - evidence_started[0], time.process_time() - evidence_started[1])]
            part_peaks = evidence_part_peaks(store)
            selection = select_analysis_chunks(store, REPO, ANALYSIS_LIMIT)
        finally:
            store.close()
    docs = sum(chunk.kind == "doc" for chunk in selection.chunks)
    print(f"\n== {seen:,} chunks (+{chunks // 10:,} of a neighbour repo), dimension {dimension}")
    print(f"store built and optimised in {built:.1f} s; medians of {rounds} interleaved runs")
    print(f"{'':30}{'wall ms':>10}{'CPU ms':>10}   wall min..max")
    for label, times in (
        ("raw scroll (page 256)", raw),
        ("select_analysis_chunks(80)", analysis),
        ("select_analysis_chunks(40)", summary),
        ("pure core, payloads in RAM", core),
        ("both selections, one scroll", both),
        ("evidence pass (1, tracemalloc)", evidence),
    ):
        wall, cpu = _medians(times)
        low, high = min(t[0] for t in times), max(t[0] for t in times)
        print(f"{label:30}{wall * 1000:10.1f}{cpu * 1000:10.1f}   {low * 1000:.1f}..{high * 1000:.1f}")
    (raw_wall, raw_cpu), (sel_wall, sel_cpu) = _medians(raw), _medians(analysis)
    sum_wall, sum_cpu = _medians(summary)
    print(
        f"ratio selection / raw scroll (target <= 1.5x): 80 -> wall {sel_wall / raw_wall:.2f}x, "
        f"CPU {sel_cpu / raw_cpu:.2f}x; 40 -> wall {sum_wall / raw_wall:.2f}x, CPU {sum_cpu / raw_cpu:.2f}x"
    )
    print(f"rules alone: {_medians(core)[1] / seen * 1e6:.2f} us CPU per chunk")
    both_wall = _medians(both)[0]
    print(f"both selections in one scroll / two separate selections: wall {both_wall / (sel_wall + sum_wall):.2f}x")
    print(
        f"peak Python memory: raw scroll {raw_peak / 2**20:.1f} MiB, selection {select_peak / 2**20:.1f} MiB, "
        f"both selections {both_peak / 2**20:.1f} MiB, analyzer evidence {evidence_peak / 2**20:.1f} MiB; "
        f"every payload in a list {list_peak / 2**20:.1f} MiB"
    )
    print("evidence collectors alone (peak MiB): " + ", ".join(f"{n} {b / 2**20:.1f}" for n, b in part_peaks.items()))
    print(f"picked {selection.picked} ({docs} docs), median code date {selection.median_code}")


def _medians(times: list[Timing]) -> Timing:
    return statistics.median(t[0] for t in times), statistics.median(t[1] for t in times)


def main() -> None:
    """Parse arguments and run each size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--dimension", type=int, default=64, help="dense size (not read by a payload scroll)")
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args()
    for size in arguments.sizes:
        run(size, arguments.dimension, arguments.rounds)
    print(f"\nprocess peak RSS (ru_maxrss): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
