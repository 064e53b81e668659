"""Time to analysis and time to complete vectors, against the parts they cannot avoid, in one run.

Run: `uv run --no-sync python bench/index/time_to_analysis.py --repo /path/to/repo.git [--no-dense] [--runs N]`.
The time-to-analysis figures print as soon as they are measured; `--no-dense` stops there (the dense
phase with the local model takes most of an hour on a 1k-file repository and two busy cores).
`--runs N` measures the floor and the first phase N times (each from an empty cache) and prints the
medians with the load average around each run: on a shared machine one run says little.
`--no-history-fetch` turns off the index run's fetch of past blobs for the doc-claim history
(`INDEX_HISTORY_FETCH_BYTES=0`), to see the indexing without it. `--parse-process` parses and
encodes in the parse process (`INDEX_PARSE_PROCESS=true`), started once before the first run and kept
for all of them, as the indexer service keeps it.

The analysis can start once ChunksIndexed is out: clone + recency scan + index (payloads and sparse
vectors) + the selector's payload scroll. Its physical floor is the sum of those parts done alone,
measured here on the same repository in the same process: clone, recency scan, ls-tree, blob reads and
parsing, sparse encoding, payload scroll. Two more parts are measured alone and printed beside it,
not in it:

- the store write: the same points (payload and sparse vector, built as the index run builds them)
  upserted into a fresh embedded store. The analysis reads those points from the store, so they must
  be written;
- the history fetch: the past blobs of the source files fetched into the blob-less mirror for the
  doc-claim history (`RepoMirror.hydrate_history`, the index run's budget), after the floor's own
  reads of the head (as in the index run, which leaves the head's blobs to its own reads). A first
  index run starts it once its chunks are written and publishes ChunksIndexed without waiting for it
  (a later run fetches the history since before ChunksIndexed: a few blobs). The bench waits for it
  after the scroll, outside the time to analysis, and prints when it ended, so that the next part
  runs alone. Over a `file://` remote its CPU includes the remote's `upload-pack`, which a user of a
  hosted remote does not pay: the bench logs that side's CPU (`fetch_cpu`) and also prints the
  fetch's client side alone, and the time to analysis without the remote's side of its fetches.

Printed, by wall and by CPU (this process, every thread, and the git processes it waited for): the
floor; floor + store write; floor + store write + history fetch (a sum, though a first run's fetch
now follows the time to analysis); and the ratios of the time to analysis to each (the target, <= 1.3, is
against the floor alone), to the same first phase with an instant embedder (target <= 1.5), and by
client-side CPU to floor + store write + the fetch's client side.

With the dense phase (no `--no-dense`): the dense pass by wall and by CPU against the model alone
embedding all the same texts, once before and once after the pass (target <= 1.05; the mean of the
two); and a no-change re-run (index + dense pass) as a share of the full first run (target <= 1%),
with its embedding calls (target 0).

Last measured (celery/celery, 775 files, 15,441 chunks, `--no-dense --runs 3`, three benches before
and three after a first run's history fetch moved after its ChunksIndexed, alternated, load average
2.2 to 6.4; docs/indexing.md has the table): time to analysis 12.6-12.8 -> 7.4-8.8 s CPU, 1.72x-1.99x
-> 1.25x-1.76x the floor by wall, 2.05x-2.22x -> 1.35x-1.66x by CPU; against the floor plus the store
write 1.45x-1.65x -> 1.01x-1.19x CPU. The history is whole 3 to 8 s after the scroll. What is over
the floor is the store write (split part by part by `store_write_split.py`: ~0.5 s the binding's
conversions, ~0.5 s the engine, both under the GIL). With `--parse-process` (measured before the
move, with the fetch beside the run): 1.19x / 1.57x without the fetch (0.80x / 1.12x counting the
write: the write overlaps the parsing, by wall). With the file-version fields stored as one value
(two benches each, alternated, load 4.0 to 5.2): the store write alone 2.17 / 2.24 -> 2.06 / 2.06 s
CPU, time to analysis 1.45x / 1.47x -> 1.51x / 1.51x the floor by CPU (the ~0.2 s is inside the noise).

With the blobs read ahead in doubling slices and the parse process fed by its own task (main at
ec91465 -> after; the four benches one after the other, load 5.2 to 6.8, no core free): in process
1.40x -> 1.29x wall, 1.41x -> 1.43x CPU; parse process 1.32x -> 1.41x wall, 1.54x -> 1.51x CPU;
against floor + store write 1.02x-1.03x CPU in process, 1.11x-1.14x with the worker. The index run
alone with the worker, where a core was free (`stage_timeline.py`, load ~4): 4.2-5.5 -> 2.7-2.9 s wall;
at load 2.7-4.1 (two benches of each alternated): parse process 1.41x / 1.39x wall, 1.51x / 1.48x CPU,
main at ec91465 in process 1.50x / 1.43x wall, 1.43x / 1.42x CPU. The 1.3x target is not met by CPU.
The parse process is now started and warmed before the first run (`warm_up_request`), so no run
counts its imports.

Never commit the benchmarked repository.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path

import msgspec
from fetch_cpu import server_cpu, server_side_logged
from index_inputs import bench_arguments, head_chunks, request_for, warm_up_request

from sextant.chunkstore import ChunkPoint, SparseVector, collection_name, dense_text_of
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import ChunksIndexed, RepoRef, utc_now_iso
from sextant.embedding import LocalMiniLM, SparseEncoder
from sextant.gitsource.access import RepoSource
from sextant.gitsource.history_blobs import DEFAULT_HISTORY_FETCH_BYTES
from sextant.gitsource.mirror import RepoMirror
from sextant.gitsource.recency import read_recency
from sextant.indexer import DiscoveryRules, IndexerDeps, IndexerSettings, index_repository
from sextant.indexer.chunk_points import FileVersion, chunk_payload, chunk_point_ids
from sextant.indexer.dense_stage import DenseStage, on_chunks_indexed
from sextant.indexer.history_hydration import history_fetches_settled
from sextant.indexer.parse_process import shared_parse_process
from sextant.parsing import Chunk

NO_DENSE_FLAG = "--no-dense"
NO_HISTORY_FLAG = "--no-history-fetch"
PARSE_PROCESS_FLAG = "--parse-process"
RUNS_FLAG = "--runs"
STORE_WRITE = "store write"
HISTORY_FETCH = "history fetch"
HISTORY_FETCH_CLIENT = "history fetch, client side"
"""The history fetch's CPU without the file:// remote's upload-pack (a hosted remote spends that)."""
BESIDE_THE_FLOOR = (STORE_WRITE, HISTORY_FETCH, HISTORY_FETCH_CLIENT)
"""Parts measured alone and printed beside the floor, not in it (see the module docstring)."""


class InstantEmbedder:
    """Answers at once with a constant vector: what the pipeline costs when the model costs nothing."""

    def __init__(self, model: LocalMiniLM) -> None:
        self._model = model
        self.calls = 0

    model_id = "bench/instant"
    dimension = 384

    @property
    def max_chars(self) -> int:
        return self._model.max_chars

    @property
    def batch_size(self) -> int:
        return self._model.batch_size

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        return [[1.0] + [0.0] * (self.dimension - 1) for _ in texts]

    async def embed_query(self, text: str) -> list[float]:
        return [1.0] + [0.0] * (self.dimension - 1)


Times = tuple[float, float]
"""(wall seconds, CPU seconds of this process and the git processes it waited for)."""


def clock() -> Times:
    """Wall and CPU clocks now. CPU is printed beside wall: on a machine shared with other work the
    wall clock measures the neighbours as much as the code."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter(), time.process_time() + children.ru_utime + children.ru_stime


def since(started: Times) -> Times:
    now = clock()
    return now[0] - started[0], now[1] - started[1]


def timed(work: dict[str, Times], name: str, started: Times) -> None:
    work[name] = since(started)


def floor_parts(
    home: Path, url: str, embedder: LocalMiniLM, rules: DiscoveryRules, *, store_name: str, history_bytes: int
) -> dict[str, Times]:
    """Each unavoidable part alone, from an empty mirror cache (the scroll is timed later), then the
    store write of the same points and the history fetch alone (``BESIDE_THE_FLOOR``)."""
    parts: dict[str, Times] = {}
    mirrors = RepoMirror(home / "mirrors-floor")
    source = RepoSource(url=url)
    started = clock()
    state = mirrors.sync(source)
    timed(parts, "clone", started)
    started = clock()
    read_recency(Path(state.path), state.head_sha, env=os.environ)
    timed(parts, "recency scan", started)
    started = clock()
    entries = [entry for entry in mirrors.list_tree(source, state.head_sha) if rules.wants_path(entry.path)]
    timed(parts, "ls-tree", started)
    started = clock()
    blobs = mirrors.read_blobs(source, [entry.blob_sha for entry in entries], rules.max_file_bytes)
    chunks = head_chunks(entries, blobs, rules, embedder.max_chars)
    timed(parts, "read + parse", started)
    started = clock()
    vectors = SparseEncoder().encode_documents([chunk.sparse_text for chunk in chunks])
    timed(parts, "sparse", started)
    blob_shas = {entry.path: entry.blob_sha for entry in entries}
    points = head_points(RepoRef.for_url(url).repo_key, chunks, vectors, blob_shas)
    store = EdgeChunkStore(home / "qdrant-floor", store_name, embedder.dimension)
    started = clock()
    store.upsert(points)
    timed(parts, STORE_WRITE, started)
    store.close()
    if history_bytes > 0:
        log = home / "upload-pack-floor.log"
        server_side_logged(mirrors.mirror_dir(source), log)
        started = clock()
        mirrors.hydrate_history(source, state.head_sha, max_bytes=history_bytes)
        timed(parts, HISTORY_FETCH, started)
        wall, cpu = parts[HISTORY_FETCH]
        parts[HISTORY_FETCH_CLIENT] = wall, cpu - server_cpu(log)[1]
    return parts


def head_points(
    repo_key: str, chunks: list[Chunk], vectors: list[SparseVector], blob_shas: dict[str, str]
) -> list[ChunkPoint]:
    """The points an index run writes for these chunks: same ids, same payloads, no dense vector."""
    points: list[ChunkPoint] = []
    indexed_at = utc_now_iso()
    encoded = zip(chunks, vectors, strict=True)
    for path, group in groupby(encoded, key=lambda pair: pair[0].path):
        file_chunks, file_vectors = zip(*group, strict=True)
        version = FileVersion(
            repo_key=repo_key,
            blob_sha=blob_shas[path],
            chunk_count=len(file_chunks),
            run_id="bench-floor",
            added=True,
            stamp=msgspec.UNSET,  # the index runs below get a skipped scan: no dates in the payloads
            indexed_at=indexed_at,
        )
        ids = chunk_point_ids(repo_key, file_chunks)
        points.extend(
            ChunkPoint(id=point_id, sparse=vector, payload=chunk_payload(chunk, version))
            for point_id, chunk, vector in zip(ids, file_chunks, file_vectors, strict=True)
        )
    return points


async def first_phase(
    home: Path,
    name: str,
    url: str,
    embedder: object,
    rules: DiscoveryRules,
    *,
    blame: bool = True,
    history_bytes: int = DEFAULT_HISTORY_FETCH_BYTES,
    parse_process: bool = False,
) -> tuple[IndexerDeps, ChunksIndexed, Times, float]:
    """Recency scan + index run (payloads and sparse) + the selector's scroll, from an empty cache.

    With ``parse_process`` the run uses the one parse process that the bench keeps for all its runs, as
    the indexer service keeps it for its runs (started and given one tiny request before the first run,
    so its imports are no run's): its CPU during the run (by its answers) is added to the time to
    analysis.

    A first run's history fetch follows its ChunksIndexed (the run does not wait for it): it is waited
    for after the scroll, outside the time to analysis, so that the next measurement runs alone.

    Returns:
        The deps, the event, the time to analysis, and the CPU of the file:// remote's upload-pack
        for the fetches within it (the index run's sync and the reads of its files).
    """
    settings = IndexerSettings(
        mirrors_dir=home / f"mirrors-{name}",
        store_path=home / f"qdrant-{name}",
        rules=rules,
        allow_local_repos=True,
        symbol_blame=blame,
        history_fetch_bytes=history_bytes,
        parse_process="true" if parse_process else "false",
    )
    model = embedder  # the store is named after the model, as in production
    store = EdgeChunkStore(
        settings.store_path,
        collection_name(model.model_id, model.dimension),  # type: ignore[attr-defined]
        model.dimension,  # type: ignore[attr-defined]
    )
    deps = IndexerDeps(settings=settings, store=store, embedder=model, mirrors=RepoMirror(settings.mirrors_dir))  # type: ignore[arg-type]
    request, recency = request_for(url, f"bench-{name}")
    worker_before = shared_parse_process().cpu_seconds
    started = clock()
    state = deps.mirrors.sync(RepoSource(url=url))
    log = home / f"upload-pack-{name}.log"
    if not state.in_place:
        server_side_logged(Path(state.path), log)
    read_recency(Path(state.path), state.head_sha, env=os.environ)
    indexed = await index_repository(request, recency, deps)
    sum(1 for _ in store.scroll_payloads(request.repo.repo_key))
    wall, cpu = since(started)
    if parse_process:
        cpu += shared_parse_process().cpu_seconds - worker_before
    server = server_cpu(log)[1]
    await history_fetches_settled()
    if history_bytes > 0 and not state.in_place:
        print(f"  {name}: history fetch ended {since(started)[0] - wall:.2f} s after the scroll", flush=True)
    return deps, indexed, (wall, cpu), server


async def blame_cost(home: Path, local: str, embedder: object, rules: DiscoveryRules) -> tuple[float, float]:
    """The first phase on the repository read in place, without and with symbol dates by blame."""
    seconds: list[float] = []
    for blame in (False, True):
        deps, _, elapsed, _ = await first_phase(home, f"local-{blame}", local, embedder, rules, blame=blame)
        deps.store.close()
        seconds.append(elapsed[0])
    return seconds[0], seconds[1]


@dataclass(frozen=True)
class RunFigures:
    """One measurement of the floor's parts and the first phase, with the load around it."""

    parts: dict[str, Times]
    to_analysis: Times
    instant: Times
    load: tuple[float, float]
    """One-minute load average before and after the run."""
    server_cpu: float = 0.0
    """CPU of the file:// remote's upload-pack within the time to analysis (its history fetch's)."""

    @property
    def floor(self) -> Times:
        return self._sum(name for name in self.parts if name not in BESIDE_THE_FLOOR)

    @property
    def with_write(self) -> Times:
        return self._sum([*(name for name in self.parts if name not in BESIDE_THE_FLOOR), STORE_WRITE])

    @property
    def with_all(self) -> Times:
        fetch = [HISTORY_FETCH] if HISTORY_FETCH in self.parts else []
        return self._sum([*(name for name in self.parts if name not in BESIDE_THE_FLOOR), STORE_WRITE, *fetch])

    @property
    def with_all_client(self) -> Times:
        """Floor + store write + the history fetch's client side (CPU; wall as `with_all`)."""
        fetch = [HISTORY_FETCH_CLIENT] if HISTORY_FETCH_CLIENT in self.parts else []
        return self._sum([*(name for name in self.parts if name not in BESIDE_THE_FLOOR), STORE_WRITE, *fetch])

    @property
    def to_analysis_client(self) -> Times:
        """Time to analysis without the remote's side of its fetches (CPU; wall unchanged)."""
        return self.to_analysis[0], self.to_analysis[1] - self.server_cpu

    def _sum(self, names: Iterable[str]) -> Times:
        chosen = [self.parts[name] for name in names]
        return sum(wall for wall, _ in chosen), sum(cpu for _, cpu in chosen)

    def ratios(self) -> dict[str, float]:
        return {
            "wall": self.to_analysis[0] / self.floor[0],
            "CPU": self.to_analysis[1] / self.floor[1],
            "wall with write": self.to_analysis[0] / self.with_write[0],
            "CPU with write": self.to_analysis[1] / self.with_write[1],
            "wall with write + history": self.to_analysis[0] / self.with_all[0],
            "CPU with write + history": self.to_analysis[1] / self.with_all[1],
            "client CPU with write + history": self.to_analysis_client[1] / self.with_all_client[1],
            "wall / instant": self.to_analysis[0] / self.instant[0],
            "CPU / instant": self.to_analysis[1] / self.instant[1],
        }


def print_run(number: int, figures: RunFigures) -> None:
    """One run's figures against the floor of its parts, by wall clock and by CPU."""
    parts, floor, write, to_analysis = figures.parts, figures.floor, figures.parts[STORE_WRITE], figures.to_analysis
    ratios = figures.ratios()
    print(f"run {number} (load {figures.load[0]:.1f} -> {figures.load[1]:.1f})")
    print("  parts (wall/CPU)    " + ", ".join(f"{name} {w:.2f}/{c:.2f} s" for name, (w, c) in parts.items()))
    print(f"  floor (sum)         wall {floor[0]:.2f} s, CPU {floor[1]:.2f} s (without the store write)")
    print(
        f"  time to analysis    wall {to_analysis[0]:.2f} s = {ratios['wall']:.2f}x the floor, "
        f"CPU {to_analysis[1]:.2f} s = {ratios['CPU']:.2f}x (target <= 1.3)"
    )
    over = to_analysis[0] - floor[0], to_analysis[1] - floor[1]
    print(
        f"  over the floor      wall {over[0]:.2f} s, CPU {over[1]:.2f} s; the store write alone: wall "
        f"{write[0]:.2f} s, CPU {write[1]:.2f} s; floor + store write: {ratios['wall with write']:.2f}x wall, "
        f"{ratios['CPU with write']:.2f}x CPU"
    )
    if HISTORY_FETCH in parts:
        history, client = parts[HISTORY_FETCH], parts[HISTORY_FETCH_CLIENT]
        print(
            f"  history fetch alone wall {history[0]:.2f} s, CPU {history[1]:.2f} s, client side {client[1]:.2f} s "
            f"(a first run's follows its ChunksIndexed); floor + store write + history fetch: "
            f"{ratios['wall with write + history']:.2f}x wall, {ratios['CPU with write + history']:.2f}x CPU"
        )
        print(
            f"  client side only    time to analysis CPU {figures.to_analysis_client[1]:.2f} s (upload-pack "
            f"{figures.server_cpu:.2f} s left out) / floor + store write + client-side fetch "
            f"{figures.with_all_client[1]:.2f} s = {ratios['client CPU with write + history']:.2f}x"
        )
    print(
        f"  instant embedder    wall {figures.instant[0]:.2f} s, CPU {figures.instant[1]:.2f} s; model run / "
        f"instant run = wall {ratios['wall / instant']:.2f}x, CPU {ratios['CPU / instant']:.2f}x (target <= 1.5)",
        flush=True,
    )


def medians(times: list[Times]) -> Times:
    """Median wall and median CPU (each of its own column)."""
    return statistics.median(wall for wall, _ in times), statistics.median(cpu for _, cpu in times)


def print_medians(args: argparse.Namespace, indexed: ChunksIndexed, runs: list[RunFigures]) -> None:
    """The medians over the runs (every figure is the median of its own column)."""
    print(f"repository            {args.repo} (root: {args.root or '/'})")
    print(f"files / chunks        {indexed.files_added:,} files, {indexed.chunks_upserted:,} chunks")
    loads = [load for figures in runs for load in figures.load]
    print(f"median of {len(runs)} runs       (load average {min(loads):.1f} to {max(loads):.1f})")

    ratios = {name: statistics.median(figures.ratios()[name] for figures in runs) for name in runs[0].ratios()}
    floor = medians([figures.floor for figures in runs])
    write = medians([figures.parts[STORE_WRITE] for figures in runs])
    analysis = medians([figures.to_analysis for figures in runs])
    print(f"  floor               wall {floor[0]:.2f} s, CPU {floor[1]:.2f} s")
    print(f"  store write alone   wall {write[0]:.2f} s, CPU {write[1]:.2f} s")
    print(
        f"  time to analysis    wall {analysis[0]:.2f} s = {ratios['wall']:.2f}x the floor, CPU {analysis[1]:.2f} s "
        f"= {ratios['CPU']:.2f}x (target <= 1.3)"
    )
    print(
        f"  floor + store write {ratios['wall with write']:.2f}x wall, {ratios['CPU with write']:.2f}x CPU "
        "(the floor counting the write of the points the analysis reads)"
    )
    with_write = medians([figures.with_write for figures in runs])
    print(f"  floor + store write wall {with_write[0]:.2f} s, CPU {with_write[1]:.2f} s")
    if HISTORY_FETCH in runs[0].parts:
        history = medians([figures.parts[HISTORY_FETCH] for figures in runs])
        client = medians([figures.parts[HISTORY_FETCH_CLIENT] for figures in runs])
        with_all = medians([figures.with_all for figures in runs])
        with_all_client = medians([figures.with_all_client for figures in runs])
        analysis_client = medians([figures.to_analysis_client for figures in runs])
        print(
            f"  history fetch alone wall {history[0]:.2f} s, CPU {history[1]:.2f} s, client side CPU "
            f"{client[1]:.2f} s (the rest: the file:// remote's upload-pack)"
        )
        print(
            f"  floor + write + fetch wall {with_all[0]:.2f} s, CPU {with_all[1]:.2f} s (client side: "
            f"{with_all_client[1]:.2f} s); time to analysis / it: {ratios['wall with write + history']:.2f}x wall, "
            f"{ratios['CPU with write + history']:.2f}x CPU"
        )
        print(
            f"  client side only    time to analysis CPU {analysis_client[1]:.2f} s / floor + write + client-side "
            f"fetch = {ratios['client CPU with write + history']:.2f}x"
        )
    print(
        f"  model / instant     wall {ratios['wall / instant']:.2f}x, CPU {ratios['CPU / instant']:.2f}x "
        "(target <= 1.5)",
        flush=True,
    )


@dataclass(frozen=True)
class LastRun:
    """The stores of the last measured run, kept open for the dense phase."""

    deps: IndexerDeps
    indexed: ChunksIndexed
    instant_deps: IndexerDeps
    instant_indexed: ChunksIndexed


async def measure_runs(
    args: argparse.Namespace, tmp: Path, url: str, model: LocalMiniLM, rules: DiscoveryRules
) -> tuple[list[RunFigures], LastRun]:
    """The floor's parts and the first phase (model and instant embedder), ``args.runs`` times."""
    runs: list[RunFigures] = []
    last: LastRun | None = None
    store_name = collection_name(model.model_id, model.dimension)
    if args.parse_process:
        # Started once, as the indexer service starts it; not stopped (stopping would reap it, and its
        # CPU would land in the children's CPU of whatever part is timed then).
        shared_parse_process().start()
        await asyncio.to_thread(shared_parse_process().submit(warm_up_request()).result)
    for number in range(1, args.runs + 1):
        home = tmp / f"run-{number}"
        load_before = os.getloadavg()[0]
        parts = await asyncio.to_thread(
            floor_parts, home, url, model, rules, store_name=store_name, history_bytes=args.history_bytes
        )
        deps, indexed, to_analysis, server = await first_phase(
            home, "model", url, model, rules, history_bytes=args.history_bytes, parse_process=args.parse_process
        )
        started = clock()
        sum(1 for _ in deps.store.scroll_payloads(indexed.repo.repo_key))
        parts["scroll"] = since(started)
        instant = InstantEmbedder(model)
        instant_deps, instant_indexed, instant_to_analysis, _ = await first_phase(
            home, "instant", url, instant, rules, history_bytes=args.history_bytes, parse_process=args.parse_process
        )
        load = (load_before, os.getloadavg()[0])
        runs.append(RunFigures(parts, to_analysis, instant_to_analysis, load, server_cpu=server))
        # Printed at once: the dense phase with the real model can take most of an hour.
        print_run(number, runs[-1])
        if last is not None:
            last.deps.store.close()
            last.instant_deps.store.close()
        last = LastRun(deps, indexed, instant_deps, instant_indexed)
    if last is None:
        raise ValueError("--runs must be at least 1")
    return runs, last


async def main(args: argparse.Namespace, url: str, local: str) -> None:
    model = LocalMiniLM()
    await model.load()
    rules = DiscoveryRules(root=args.root)
    with tempfile.TemporaryDirectory(prefix="sextant-bench-tta-") as tmp:
        runs, last = await measure_runs(args, Path(tmp), url, model, rules)
        print_medians(args, last.indexed, runs)
        deps, indexed, instant_deps, instant_indexed = last.deps, last.indexed, last.instant_deps, last.instant_indexed
        to_analysis = runs[-1].to_analysis
        if args.no_dense:
            deps.store.close()
            instant_deps.store.close()
            return
        instant = InstantEmbedder(model)

        no_blame, with_blame = await blame_cost(Path(tmp), local, instant, rules)

        texts = [dense_text_of(chunk.payload) for chunk in deps.store.scroll_missing_dense(indexed.repo.repo_key)]
        # The model alone on all the same texts, before and after the pass: on a loaded machine one
        # timing, or a sample, says little (by CPU the neighbours matter far less than by wall).
        started = clock()
        await model.embed(texts)
        model_before = since(started)
        started = clock()
        [embedded] = await on_chunks_indexed(indexed, DenseStage(store=deps.store, embedder=model))
        dense = since(started)
        started = clock()
        await model.embed(texts)
        model_after = since(started)
        started = time.perf_counter()
        await on_chunks_indexed(instant_indexed, DenseStage(store=instant_deps.store, embedder=instant))
        instant_dense = time.perf_counter() - started

        calls_before = model.calls
        request, recency = request_for(url, "bench-again")
        started = time.perf_counter()
        again = await index_repository(request, recency, deps)
        [again_dense] = await on_chunks_indexed(again, DenseStage(store=deps.store, embedder=model))
        again_seconds = time.perf_counter() - started
        again_calls = model.calls - calls_before
        deps.store.close()
        instant_deps.store.close()

    model_alone = (model_before[0] + model_after[0]) / 2, (model_before[1] + model_after[1]) / 2
    dense_seconds = dense[0]
    full = to_analysis[0] + dense_seconds
    print(
        f"dense phase           {embedded.points_embedded:,} vectors: wall {dense[0]:.1f} s, CPU {dense[1]:.1f} s; "
        f"model alone on the same {len(texts):,} texts (before / after) wall {model_before[0]:.1f} / "
        f"{model_after[0]:.1f} s, CPU {model_before[1]:.1f} / {model_after[1]:.1f} s -> "
        f"{dense[0] / model_alone[0]:.3f}x wall, {dense[1] / model_alone[1]:.3f}x CPU (target <= 1.05); "
        f"instant-embedder pass {instant_dense:.2f} s"
    )
    print(
        f"symbol dates (blame)  first phase read in place {with_blame:.2f} s vs {no_blame:.2f} s without blame: "
        f"+{100 * (with_blame - no_blame) / no_blame:.0f}% of the first phase, "
        f"+{100 * (with_blame - no_blame) / full:.1f}% of a whole first index (target <= 25%)"
    )
    print(f"vectors complete      {full:.1f} s after the start ({embedded.complete=})")
    print(
        f"no-change re-run      {again_seconds:.2f} s = {100 * again_seconds / full:.2f}% of the full run "
        f"(target <= 1%); {again.files_unchanged:,} unchanged, {again_calls} embedding calls, "
        f"{again_dense.points_embedded} vectors written"
    )


if __name__ == "__main__":
    skip_dense = NO_DENSE_FLAG in sys.argv  # the shared argument parser does not know these three
    if skip_dense:
        sys.argv.remove(NO_DENSE_FLAG)
    skip_history = NO_HISTORY_FLAG in sys.argv
    if skip_history:
        sys.argv.remove(NO_HISTORY_FLAG)
    in_worker = PARSE_PROCESS_FLAG in sys.argv
    if in_worker:
        sys.argv.remove(PARSE_PROCESS_FLAG)
    repeats = 1
    if RUNS_FLAG in sys.argv:
        at = sys.argv.index(RUNS_FLAG)
        repeats = int(sys.argv[at + 1])
        del sys.argv[at : at + 2]
    arguments = bench_arguments(__doc__, model_sample=None)
    arguments.no_dense = skip_dense
    arguments.runs = max(1, repeats)
    arguments.history_bytes = 0 if skip_history else DEFAULT_HISTORY_FETCH_BYTES
    arguments.parse_process = in_worker
    repo_path = Path(arguments.repo).absolute()
    asyncio.run(main(arguments, repo_path.as_uri(), repo_path.as_posix()))
