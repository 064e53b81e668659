"""Index pipeline: full-index throughput against the model's own, no-change re-index time, peak memory.

Run: `uv run --no-sync python bench/index/run.py --repo /path/to/repo.git [--model-sample 1024]`.
The repository is cloned blob-less over file:// into a temp SEXTANT_HOME (as a remote would be), then
indexed with the real local model into the real embedded store. The model's own throughput is timed
on a random sample of the very dense texts the pipeline embedded (before and after the index, the
two averaged, since the machine is shared); the ratio says how much of the model's speed the
pipeline keeps (target >= 0.8). The no-change re-index (one fetch, one ls-tree, one scroll) is shown
as a share of the full index (target <= 2%). Never commit the benchmarked repository.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import tempfile
import time
from pathlib import Path

from index_inputs import bench_arguments, head_chunks, request_for

from sextant.chunkstore import collection_name
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.embedding import LocalMiniLM
from sextant.gitsource.mirror import RepoMirror
from sextant.indexer import DiscoveryRules, IndexerDeps, IndexerSettings, IndexProgress, index_repository


def dense_texts(deps: IndexerDeps, url: str) -> list[str]:
    """The dense texts of every indexable file at head, exactly as the pipeline builds them."""
    from sextant.gitsource.access import RepoSource

    source = RepoSource(url=url)
    state = deps.mirrors.sync(source)
    entries = [e for e in deps.mirrors.list_tree(source, state.head_sha) if deps.settings.rules.wants_path(e.path)]
    blobs = deps.mirrors.read_blobs(source, [e.blob_sha for e in entries], deps.settings.rules.max_file_bytes)
    return [chunk.dense_text for chunk in head_chunks(entries, blobs, deps.settings.rules, deps.embedder.max_chars)]


async def model_rate(model: LocalMiniLM, texts: list[str]) -> float:
    started = time.perf_counter()
    await model.embed(texts)
    return len(texts) / (time.perf_counter() - started)


async def main(args: argparse.Namespace, url: str) -> None:
    model = LocalMiniLM()
    await model.load()
    with tempfile.TemporaryDirectory(prefix="sextant-bench-index-") as home:
        settings = IndexerSettings(
            mirrors_dir=Path(home) / "mirrors",
            store_path=Path(home) / "qdrant",
            rules=DiscoveryRules(root=args.root),
        )
        store = EdgeChunkStore(settings.store_path, collection_name(model.model_id, model.dimension), model.dimension)
        deps = IndexerDeps(settings=settings, store=store, embedder=model, mirrors=RepoMirror(settings.mirrors_dir))
        texts = await asyncio.to_thread(dense_texts, deps, url)  # also makes the clone; timed runs reuse it
        sample = random.Random(7).sample(texts, min(args.model_sample, len(texts)))
        before = await model_rate(model, sample)
        # The clone above would flatter the first run: start it from an empty mirror cache, as in production.
        deps.mirrors = RepoMirror(Path(home) / "mirrors-timed")

        last: list[IndexProgress] = []
        request, recency = request_for(url, "bench-full")
        started = time.perf_counter()
        full = await index_repository(request, recency, deps, last.append)
        full_seconds = time.perf_counter() - started
        after = await model_rate(model, sample)

        request, recency = request_for(url, "bench-again")
        started = time.perf_counter()
        again = await index_repository(request, recency, deps)
        again_seconds = time.perf_counter() - started
        store.close()

    chunks_per_second = full.chunks_upserted / full_seconds
    model_per_second = (before + after) / 2
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"repository           {args.repo} (root: {args.root or '/'})")
    print(f"files indexed        {full.files_added:,} of {full.files_seen:,} seen, {len(full.failed_files)} skipped")
    print(f"chunks               {full.chunks_upserted:,} ({len(texts):,} dense texts at head)")
    print(
        f"full index           {full_seconds:,.1f} s: {full.files_added / full_seconds:,.1f} files/s, "
        f"{chunks_per_second:,.1f} chunks/s, {full.embedding_calls:,} model calls"
    )
    print(
        f"model alone          {model_per_second:,.1f} texts/s on {len(sample):,} of the same dense texts "
        f"(before {before:,.1f}, after {after:,.1f})"
    )
    print(f"pipeline / model     {chunks_per_second / model_per_second:.2f}  (target >= 0.80)")
    print(
        f"no-change re-index   {again_seconds:,.2f} s = "
        f"{100 * again_seconds / full_seconds:.2f}% of the full index "
        f"(target <= 2%); {again.files_unchanged:,} unchanged, {again.embedding_calls} model calls"
    )
    print(f"peak memory (RSS)    {peak_mib:,.0f} MiB")


if __name__ == "__main__":
    arguments = bench_arguments(__doc__, model_sample=1024)
    asyncio.run(main(arguments, Path(arguments.repo).absolute().as_uri()))
