"""Review context assembly against the raw hybrid search it is built on.

Run: `uv run --no-sync python bench/review/run.py --repo /path/to/repo [--reviews 20]`.
The repository is indexed once (real local model, embedded store) into a temp SEXTANT_HOME. Then, for
diffs made from the repository's own recent commits, it times:

- raw: embedding the query plus the store's hybrid search (dense + sparse prefetch, RRF, top 50) —
  the physical floor of any retrieval;
- assembly: the reviewer's whole context path on the same query (search, per-symbol de-duplication,
  local rerank, the recency rules, prompt assembly) — everything a review does before a model call.

It prints medians and the ratio (assembly / raw). Never commit the benchmarked repository.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sextant.chunkstore import collection_name
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import RepoRef
from sextant.embedding import LocalMiniLM, SparseEncoder
from sextant.gitsource.mirror import RepoMirror
from sextant.indexer import IndexerDeps, IndexerSettings, index_repository
from sextant.rerank import LocalReranker
from sextant.reviewer.config import QUERY_MAX_CHARS, RETRIEVAL_LIMIT
from sextant.reviewer.diff_reading import read_diff
from sextant.reviewer.prompt import build_review_prompt
from sextant.reviewer.recency_context import apply_recency_to_context
from sextant.reviewer.retrieval import build_query, retrieve

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "index"))
from index_inputs import scanned_request_for


def recent_diffs(repo: Path, count: int) -> list[tuple[str, str]]:
    """(subject, diff) of the repository's most recent non-merge commits that touch code."""
    shas = subprocess.run(
        ["git", "-C", str(repo), "log", "--no-merges", "--format=%H", f"-{count * 3}"],
        check=True, capture_output=True, text=True,
    ).stdout.split()  # fmt: skip
    diffs = []
    for sha in shas:
        subject = subprocess.run(
            ["git", "-C", str(repo), "log", "-1", "--format=%s", sha], check=True, capture_output=True, text=True
        ).stdout.strip()
        diff = subprocess.run(
            ["git", "-C", str(repo), "show", "--format=", "--no-color", sha], check=True, capture_output=True, text=True
        ).stdout
        if diff.strip():
            diffs.append((subject, diff))
        if len(diffs) == count:
            break
    return diffs


async def index(repo: Path, home: Path, model: LocalMiniLM) -> tuple[EdgeChunkStore, RepoRef]:
    settings = IndexerSettings(mirrors_dir=home / "mirrors", store_path=home / "qdrant")
    store = EdgeChunkStore(settings.store_path, collection_name(model.model_id, model.dimension), model.dimension)
    deps = IndexerDeps(settings=settings, store=store, embedder=model, mirrors=RepoMirror(settings.mirrors_dir))
    request, recency = scanned_request_for(str(repo), "bench")
    started = time.perf_counter()
    result = await index_repository(request, recency, deps)
    print(
        f"indexed {result.files_seen} files, {result.chunks_upserted} chunks in {time.perf_counter() - started:.1f} s"
    )
    return store, request.repo


async def main(args: argparse.Namespace) -> None:
    model = LocalMiniLM()
    await model.load()
    sparse = SparseEncoder()
    reranker = LocalReranker()
    with tempfile.TemporaryDirectory(prefix="sextant-bench-review-") as home:
        store, ref = await index(args.repo, Path(home), model)
        raw_times, assembly_times = [], []
        for subject, diff in recent_diffs(args.repo, args.reviews):
            query = build_query(subject, "", read_diff(diff), QUERY_MAX_CHARS)
            started = time.perf_counter()
            dense = await model.embed_query(query)
            store.hybrid_search(ref.repo_key, dense, sparse.encode_query(query), RETRIEVAL_LIMIT)
            raw_times.append(time.perf_counter() - started)

            started = time.perf_counter()
            retrieval = await retrieve(
                store=store, embedder=model, sparse=sparse, reranker=reranker, repo_key=ref.repo_key, query=query,
                limit=RETRIEVAL_LIMIT,
            )  # fmt: skip
            decisions, _ = apply_recency_to_context(retrieval.chunks)
            build_review_prompt(title=subject, description="", diff=diff, decisions=decisions)
            assembly_times.append(time.perf_counter() - started)
        store.close()
    raw, assembly = statistics.median(raw_times), statistics.median(assembly_times)
    print(f"reviews: {len(raw_times)}")
    print(f"raw hybrid search (query embedding + RRF top {RETRIEVAL_LIMIT}): median {raw * 1000:.1f} ms")
    print(f"context assembly (search, dedup, rerank, recency, prompt): median {assembly * 1000:.1f} ms")
    print(f"ratio assembly / raw: {assembly / raw:.2f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, required=True, help="a local git repository (working tree or bare)")
    parser.add_argument("--reviews", type=int, default=20, help="how many recent commits to review")
    asyncio.run(main(parser.parse_args()))
