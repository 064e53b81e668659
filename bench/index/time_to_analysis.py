"""Time to analysis and time to complete vectors, against the parts they cannot avoid, in one run.

Run: `uv run --no-sync python bench/index/time_to_analysis.py --repo /path/to/repo.git [--no-dense]`.
The time-to-analysis figures print as soon as they are measured; `--no-dense` stops there (the dense
phase with the local model takes most of an hour on a 1k-file repository and two busy cores).

The analysis can start once ChunksIndexed is out: clone + recency scan + index (payloads and sparse
vectors) + the selector's payload scroll. Its physical floor is the sum of those parts done alone,
measured here on the same repository in the same process: clone, recency scan, ls-tree, blob reads and
parsing, sparse encoding, payload scroll. Printed ratios:

- time to analysis / floor (target <= 1.3), and / the same with an instant embedder (target <= 1.5);
- dense phase / the model alone on the same texts (target <= 1.05);
- a no-change re-run (index + dense pass) as a share of the full first run (target <= 1%), and its
  embedding calls (target 0).

Never commit the benchmarked repository.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from index_inputs import bench_arguments, head_chunks, request_for

from sextant.chunkstore import collection_name, dense_text_of
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import ChunksIndexed
from sextant.embedding import LocalMiniLM, SparseEncoder
from sextant.gitsource.access import RepoSource
from sextant.gitsource.mirror import RepoMirror
from sextant.gitsource.recency import read_recency
from sextant.indexer import DiscoveryRules, IndexerDeps, IndexerSettings, index_repository
from sextant.indexer.dense_stage import DenseStage, on_chunks_indexed

NO_DENSE_FLAG = "--no-dense"


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


def floor_parts(home: Path, url: str, embedder: LocalMiniLM, rules: DiscoveryRules) -> dict[str, Times]:
    """Each unavoidable part alone, from an empty mirror cache (the scroll is timed later)."""
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
    sparse_texts = [chunk.sparse_text for chunk in head_chunks(entries, blobs, rules, embedder.max_chars)]
    timed(parts, "read + parse", started)
    started = clock()
    SparseEncoder().encode_documents(sparse_texts)
    timed(parts, "sparse", started)
    return parts


async def first_phase(
    home: Path, name: str, url: str, embedder: object, rules: DiscoveryRules, *, blame: bool = True
) -> tuple[IndexerDeps, ChunksIndexed, Times]:
    """Recency scan + index run (payloads and sparse) + the selector's scroll, from an empty cache."""
    settings = IndexerSettings(
        mirrors_dir=home / f"mirrors-{name}",
        store_path=home / f"qdrant-{name}",
        rules=rules,
        allow_local_repos=True,
        symbol_blame=blame,
    )
    model = embedder  # the store is named after the model, as in production
    store = EdgeChunkStore(
        settings.store_path,
        collection_name(model.model_id, model.dimension),  # type: ignore[attr-defined]
        model.dimension,  # type: ignore[attr-defined]
    )
    deps = IndexerDeps(settings=settings, store=store, embedder=model, mirrors=RepoMirror(settings.mirrors_dir))  # type: ignore[arg-type]
    request, recency = request_for(url, f"bench-{name}")
    started = clock()
    state = deps.mirrors.sync(RepoSource(url=url))
    read_recency(Path(state.path), state.head_sha, env=os.environ)
    indexed = await index_repository(request, recency, deps)
    sum(1 for _ in store.scroll_payloads(request.repo.repo_key))
    return deps, indexed, since(started)


async def blame_cost(home: Path, local: str, embedder: object, rules: DiscoveryRules) -> tuple[float, float]:
    """The first phase on the repository read in place, without and with symbol dates by blame."""
    seconds: list[float] = []
    for blame in (False, True):
        deps, _, elapsed = await first_phase(home, f"local-{blame}", local, embedder, rules, blame=blame)
        deps.store.close()
        seconds.append(elapsed[0])
    return seconds[0], seconds[1]


def print_time_to_analysis(
    args: argparse.Namespace, indexed: ChunksIndexed, parts: dict[str, Times], to_analysis: Times, instant: Times
) -> None:
    """The first phase's figures against the floor of its parts, by wall clock and by CPU."""
    floor = sum(wall for wall, _ in parts.values()), sum(cpu for _, cpu in parts.values())
    print(f"repository            {args.repo} (root: {args.root or '/'})")
    print(f"files / chunks        {indexed.files_added:,} files, {indexed.chunks_upserted:,} chunks")
    print("floor parts (wall/CPU) " + ", ".join(f"{name} {w:.2f}/{c:.2f} s" for name, (w, c) in parts.items()))
    print(f"floor (sum)           wall {floor[0]:.2f} s, CPU {floor[1]:.2f} s")
    print(
        f"time to analysis      wall {to_analysis[0]:.2f} s = {to_analysis[0] / floor[0]:.2f}x the floor, "
        f"CPU {to_analysis[1]:.2f} s = {to_analysis[1] / floor[1]:.2f}x (target <= 1.3)"
    )
    print(
        f"  instant embedder    wall {instant[0]:.2f} s, CPU {instant[1]:.2f} s; model run / instant run = "
        f"wall {to_analysis[0] / instant[0]:.2f}x, CPU {to_analysis[1] / instant[1]:.2f}x (target <= 1.5)",
        flush=True,
    )


async def main(args: argparse.Namespace, url: str, local: str) -> None:
    model = LocalMiniLM()
    await model.load()
    rules = DiscoveryRules(root=args.root)
    with tempfile.TemporaryDirectory(prefix="sextant-bench-tta-") as tmp:
        home = Path(tmp)
        parts = await asyncio.to_thread(floor_parts, home, url, model, rules)
        deps, indexed, to_analysis = await first_phase(home, "model", url, model, rules)
        started = clock()
        sum(1 for _ in deps.store.scroll_payloads(indexed.repo.repo_key))
        parts["scroll"] = since(started)
        instant = InstantEmbedder(model)
        instant_deps, instant_indexed, instant_to_analysis = await first_phase(home, "instant", url, instant, rules)
        # Printed at once: the dense phase with the real model can take most of an hour.
        print_time_to_analysis(args, indexed, parts, to_analysis, instant_to_analysis)
        if args.no_dense:
            deps.store.close()
            instant_deps.store.close()
            return

        no_blame, with_blame = await blame_cost(home, local, instant, rules)

        texts = [dense_text_of(chunk.payload) for chunk in deps.store.scroll_missing_dense(indexed.repo.repo_key)]
        sample = random.Random(7).sample(texts, min(args.model_sample, len(texts)))
        started = time.perf_counter()
        await model.embed(sample)
        model_rate = len(sample) / (time.perf_counter() - started)

        started = time.perf_counter()
        [embedded] = await on_chunks_indexed(indexed, DenseStage(store=deps.store, embedder=model))
        dense_seconds = time.perf_counter() - started
        started = time.perf_counter()
        await model.embed(sample)
        model_rate = (model_rate + len(sample) / (time.perf_counter() - started)) / 2
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

    model_alone = len(texts) / model_rate
    full = to_analysis[0] + dense_seconds
    print(
        f"dense phase           {dense_seconds:.1f} s for {embedded.points_embedded:,} vectors; model alone "
        f"{model_alone:.1f} s ({model_rate:.1f} texts/s) -> {dense_seconds / model_alone:.3f}x (target <= 1.05); "
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
    skip_dense = NO_DENSE_FLAG in sys.argv  # the shared argument parser does not know this one
    if skip_dense:
        sys.argv.remove(NO_DENSE_FLAG)
    arguments = bench_arguments(__doc__, model_sample=256)
    arguments.no_dense = skip_dense
    repo_path = Path(arguments.repo).absolute()
    asyncio.run(main(arguments, repo_path.as_uri(), repo_path.as_posix()))
