"""Chunk store adapters side by side: upsert, scroll, file index and hybrid query on the same points.

Points look like the indexer's: a 384-d dense vector, a 50-term sparse vector, a payload with a 1 KB
text. Each adapter gets the same N points (plus a neighbour repository of N/10 in the same collection,
so every read pays its repo filter), then:

- upsert: `store.upsert` of all points (batches of 256 inside the adapter, wait=True);
- scroll: `scroll_payloads` of the repository, page 256, decoded into ChunkPayload;
- file index: `file_index` (payload-only scroll of path + blob_sha);
- hybrid: `hybrid_search` p50/p95 over Q random queries (limit 50, prefetch 100); for the edge engine
  before and after `optimize()`, which is also timed.

    uv run --no-sync python bench/store/run.py [--points 10000] [--adapters edge client-memory] [--queries 50]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from qdrant_client import QdrantClient

from sextant.chunkstore import ChunkPayload, ChunkPoint, ChunkStore, SparseVector, collection_name, point_id
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.chunkstore.server_store import QdrantServerChunkStore

DIMENSION = 384
SPARSE_TERMS = 50
VOCABULARY = 30_000
TEXT = ("    value = compute(previous, options)  # a line of plausible source code\n" * 14)[:1000]
REPO = "bench-repo"
NEIGHBOUR = "bench-neighbour"


def make_points(count: int, repo_key: str, rng: random.Random) -> list[ChunkPoint]:
    points = []
    for index in range(count):
        path = f"pkg{index % 24:02d}/module_{index // 4}.py"
        start = 1 + (index % 4) * 40
        payload = ChunkPayload(
            repo_key=repo_key,
            path=path,
            blob_sha=f"{index // 4:040x}",
            kind="doc" if index % 10 == 0 else "code",
            language="python",
            symbol=f"function_{index}",
            symbol_type="function",
            signature=f"def function_{index}(previous, options):",
            start_line=start,
            end_line=start + 30,
            text=TEXT,
            indexed_at="2026-01-01T00:00:00+00:00",
            last_modified_at=f"2025-{1 + index % 12:02d}-{1 + index % 28:02d}T00:00:00+00:00",
        )
        terms = sorted(rng.sample(range(VOCABULARY), SPARSE_TERMS))
        points.append(
            ChunkPoint(
                id=point_id(repo_key, path, payload.symbol, start, 0),
                dense=[rng.gauss(0.0, 1.0) for _ in range(DIMENSION)],
                sparse=SparseVector(indices=terms, values=[float(rng.randint(1, 5)) for _ in terms]),
                payload=payload,
            )
        )
    return points


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def query_latencies(store: ChunkStore, queries: int, rng: random.Random) -> tuple[float, float]:
    samples = []
    for _ in range(queries):
        dense = [rng.gauss(0.0, 1.0) for _ in range(DIMENSION)]
        terms = sorted(rng.sample(range(VOCABULARY), 12))
        sparse = SparseVector(indices=terms, values=[1.0] * len(terms))
        samples.append(timed(lambda d=dense, s=sparse: store.hybrid_search(REPO, d, s)))
    samples.sort()
    return statistics.median(samples) * 1000, samples[int(len(samples) * 0.95) - 1] * 1000


def run(adapter: str, points: list[ChunkPoint], neighbour: list[ChunkPoint], queries: int) -> None:
    collection = collection_name("bench/model", DIMENSION)
    with tempfile.TemporaryDirectory() as folder:
        store: ChunkStore
        if adapter == "edge":
            store = EdgeChunkStore(Path(folder), collection, DIMENSION)
        elif adapter == "client-memory":
            store = QdrantServerChunkStore(QdrantClient(":memory:"), collection, DIMENSION)
        else:
            store = QdrantServerChunkStore(QdrantClient(path=folder), collection, DIMENSION)
        try:
            upsert = timed(lambda: store.upsert(points))
            store.upsert(neighbour)
            scroll = timed(lambda: sum(1 for _ in store.scroll_payloads(REPO)))
            index = timed(lambda: store.file_index(REPO))
            assert store.count(REPO) == len(points)
            rng = random.Random(7)
            p50, p95 = query_latencies(store, queries, rng)
            line = (
                f"{adapter:14} n={len(points):>7}  upsert {upsert:6.2f}s ({len(points) / upsert:7.0f}/s)  "
                f"scroll {scroll:5.2f}s ({len(points) / scroll:7.0f}/s)  file_index {index:5.2f}s  "
                f"hybrid p50 {p50:7.1f} ms p95 {p95:7.1f} ms"
            )
            if isinstance(store, EdgeChunkStore):
                optimize = timed(store.optimize)
                p50, p95 = query_latencies(store, queries, rng)
                scroll = timed(lambda: sum(1 for _ in store.scroll_payloads(REPO)))
                line += (
                    f"\n{'':14} optimize {optimize:6.2f}s, then hybrid p50 {p50:5.1f} ms p95 {p95:5.1f} ms, "
                    f"scroll {scroll:5.2f}s"
                )
            print(line, flush=True)
        finally:
            store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--points", type=int, default=10_000)
    parser.add_argument(
        "--adapters",
        nargs="+",
        default=["edge", "client-memory"],
        choices=["edge", "client-memory", "client-path"],
    )
    parser.add_argument("--queries", type=int, default=50)
    args = parser.parse_args()
    rng = random.Random(42)
    points = make_points(args.points, REPO, rng)
    neighbour = make_points(args.points // 10, NEIGHBOUR, rng)
    for adapter in args.adapters:
        run(adapter, points, neighbour, args.queries)


if __name__ == "__main__":
    main()
