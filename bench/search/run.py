"""Search quality and cost on real repositories: recall@10 and MRR for hybrid, sparse and dense, and latency.

Run: `uv run --no-sync python bench/search/run.py --repo click=/path/to/click --repo structlog=/path/to/structlog`
(paths of local clones, bare or not, at the commits `queries.json` names; fetch them, never commit them).
`--home DIR` keeps the index in DIR and reuses what is already indexed there (a `SEXTANT_HOME` works).

Each repository is indexed once with the real local model into a temporary store. Then every query of
`queries.json` runs through `sextant search`'s own code (CodeSearcher) in three modes — hybrid (dense +
sparse, RRF), sparse only (BM25), dense only — and is scored: a hit when an expected path is in the top
10; reciprocal rank of the first expected path for MRR. Latency compares our hybrid search (query
embedding, coverage check, store query, per-symbol de-duplication, framing, snippets) with the raw
store query it is built on (query embedding + `search_chunks`, top 10): the physical floor.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from sextant.chunkstore import collection_name
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import RepoRef
from sextant.embedding import LocalMiniLM, SparseEncoder
from sextant.gitsource.mirror import RepoMirror
from sextant.indexer import IndexerDeps, IndexerSettings, index_repository
from sextant.reviewer.recency_context import DOC_HEADER_NOTE
from sextant.search import CodeSearcher, SearchMode, SearchRequest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "index"))
from index_inputs import scanned_request_for

QUERIES = Path(__file__).with_name("queries.json")
TOP = 10
MODES: tuple[SearchMode, ...] = ("hybrid", "sparse", "dense")
TIMING_ROUNDS = 3


async def index(name: str, repo: Path, store: EdgeChunkStore, model: LocalMiniLM, home: Path) -> RepoRef:
    settings = IndexerSettings(mirrors_dir=home / "mirrors", store_path=home / "qdrant", allow_local_repos=True)
    deps = IndexerDeps(settings=settings, store=store, embedder=model, mirrors=RepoMirror(settings.mirrors_dir))
    request, recency = scanned_request_for(str(repo), name)
    started = time.perf_counter()
    result = await index_repository(request, recency, deps)
    print(
        f"{name}: {result.files_seen} files, {result.chunks_upserted} chunks in {time.perf_counter() - started:.0f} s"
    )
    return request.repo


async def indexed_key(name: str, repo: Path, store: EdgeChunkStore, model: LocalMiniLM, home: Path) -> str:
    key = RepoRef.for_url(str(repo)).repo_key
    if store.count(key):
        print(f"{name}: already indexed in {home} ({store.count(key)} chunks)")
        return key
    return (await index(name, repo, store, model, home)).repo_key


def reciprocal_rank(paths: list[str], expected: list[str]) -> float:
    return next((1.0 / rank for rank, path in enumerate(paths, start=1) if path in expected), 0.0)


async def main(args: argparse.Namespace) -> None:
    queries: list[dict[str, Any]] = json.loads(QUERIES.read_text())["queries"]
    repos = dict(item.split("=", 1) for item in args.repo)
    model = LocalMiniLM()
    await model.load()
    sparse = SparseEncoder()
    with tempfile.TemporaryDirectory(prefix="sextant-bench-search-") as tmp:
        home = args.home or Path(tmp)
        store = EdgeChunkStore(home / "qdrant", collection_name(model.model_id, model.dimension), model.dimension)
        keys = {name: await indexed_key(name, Path(path), store, model, home) for name, path in repos.items()}
        store.optimize()
        searcher = CodeSearcher(store=store, embedder=model, sparse=sparse, doc_note=DOC_HEADER_NOTE)
        scores: dict[tuple[str, str], list[float]] = defaultdict(list)
        misses: list[str] = []
        for query in queries:
            if query["repo"] not in keys:
                continue
            for mode in MODES:
                request = SearchRequest(query=query["query"], repo_keys=[keys[query["repo"]]], limit=TOP, mode=mode)
                outcome = await searcher.search(request)
                rr = reciprocal_rank([hit.path for hit in outcome.hits], query["expected"])
                scores[(mode, query["kind"])].append(rr)
                if mode == "hybrid" and rr == 0.0:
                    misses.append(f"  {query['repo']}: {query['query']!r} -> {[h.path for h in outcome.hits[:3]]}")
        raw_times, ours_times = [], []
        for _ in range(TIMING_ROUNDS):
            for query in queries:
                if query["repo"] not in keys:
                    continue
                key = keys[query["repo"]]
                started = time.perf_counter()
                dense = await model.embed_query(query["query"])
                store.search_chunks(key, dense=dense, sparse=sparse.encode_query(query["query"]), limit=TOP)
                raw_times.append(time.perf_counter() - started)
                started = time.perf_counter()
                await searcher.search(SearchRequest(query=query["query"], repo_keys=[key], limit=TOP))
                ours_times.append(time.perf_counter() - started)
        store.close()
    print(f"\n{'mode':<8} {'kind':<11} {'queries':>7} {'recall@10':>9} {'MRR':>6}")
    for mode in MODES:
        for kind in ("identifier", "natural"):
            values = scores[(mode, kind)]
            recall = sum(1 for v in values if v > 0) / len(values)
            print(f"{mode:<8} {kind:<11} {len(values):>7} {recall:>9.2f} {statistics.mean(values):>6.2f}")
    raw, ours = statistics.median(raw_times), statistics.median(ours_times)
    print(f"\nlatency p50 over {len(raw_times)} runs: raw store query (embed + search_chunks top {TOP})")
    print(f"{raw * 1000:.1f} ms; sextant search {ours * 1000:.1f} ms; ratio {ours / raw:.2f}x (target <= 1.5x)")
    if misses:
        print("\nhybrid misses (top 3 shown):")
        print("\n".join(misses))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", action="append", required=True, help="NAME=PATH, NAME as in queries.json")
    parser.add_argument("--home", type=Path, help="keep the index here and reuse it (default: a temporary folder)")
    asyncio.run(main(parser.parse_args()))
