"""Where the embedded store write of a first index goes: our payloads, the binding's conversions, the engine.

Run: `uv run --no-sync python bench/index/store_write_split.py --repo /path/to/repo.git [--rounds 3]`.

Builds the points of the repository's head exactly as `time_to_analysis.py` does (same ids, payloads and
sparse vectors), then writes them into a fresh qdrant-edge shard `--rounds` times, each time timing, by
CPU of this process (every thread) and by wall:

- payload dicts: `payload_to_stored` (our msgspec work);
- engine points: the binding's `SparseVector` and `Point` objects (it converts every payload value);
- operations: `UpdateOperation.upsert_points` per batch of `WRITE_BATCH` (the binding copies the points);
- engine update: `EdgeShard.update` of those operations (WAL, payload storage, payload indexes, sparse
  index), then `flush` and `close`.

And the engine update alone in variants, on the same engine points: no payload indexes; the indexes
created after the bulk write instead of before; the WAL off; other batch sizes. Also the share of a
thread spinning in Python during one whole-write call (the engine keeps the GIL for a call: a writer
thread could only overlap the gaps between calls). Minimum of the rounds per figure: on a shared machine
the neighbours only ever add.

Last measured (celery/celery, 15,441 points, `--rounds 3`, benches before and after alternated, load
average 3.3 to 5): the four file-version fields stored as one value (`file`) instead of four took the
binding's engine points 0.63-0.91 -> 0.52-0.61 s CPU and the engine update 0.74-0.83 -> 0.56-0.73 s
(payload dicts 0.08-0.12 s either way); the whole write, part by part, 1.59-1.83 -> 1.21-1.47 s.
Where the rest goes (perf, DWARF call graphs): of the binding's points, ~80% is payload values (each
string fails a bool and three number extractions first, and each failure builds and normalises a
Python error); of the engine update, ~40% the payload (storage: JSON, lz4, gridstore pages; the four
keyword indexes, each persisted in a gridstore too), ~20% the sparse index, ~13% the vector storages
(a zero dense placeholder per point among them), ~10% copying and dropping the operation's points.

Never commit the benchmarked repository.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import qdrant_edge as qe
from index_inputs import head_chunks
from time_to_analysis import head_points

from sextant.chunkstore import ChunkPoint
from sextant.chunkstore.edge_store import _index_schema
from sextant.chunkstore.schema import DENSE_VECTOR, SPARSE_VECTOR, WRITE_BATCH, IndexedField, batches, payload_to_stored
from sextant.contracts import RepoRef
from sextant.embedding import SparseEncoder
from sextant.embedding.local_minilm import LOCAL_MAX_CHARS
from sextant.gitsource.access import RepoSource
from sextant.gitsource.mirror import RepoMirror
from sextant.indexer import DiscoveryRules

Times = tuple[float, float]
"""(CPU seconds, wall seconds)."""


def timed(work: Callable[[], Any]) -> tuple[Any, Times]:
    cpu, wall = time.process_time(), time.perf_counter()
    result = work()
    return result, (time.process_time() - cpu, time.perf_counter() - wall)


def repository_points(home: Path, url: str) -> list[ChunkPoint]:
    """The head's points as an index run builds them (no dates: the bench's runs get a skipped scan)."""
    rules = DiscoveryRules(root=None)
    mirrors = RepoMirror(home / "mirrors")
    source = RepoSource(url=url)
    state = mirrors.sync(source)
    entries = [entry for entry in mirrors.list_tree(source, state.head_sha) if rules.wants_path(entry.path)]
    blobs = mirrors.read_blobs(source, [entry.blob_sha for entry in entries], rules.max_file_bytes)
    chunks = head_chunks(entries, blobs, rules, LOCAL_MAX_CHARS)
    vectors = SparseEncoder().encode_documents([chunk.sparse_text for chunk in chunks])
    blob_shas = {entry.path: entry.blob_sha for entry in entries}
    return head_points(RepoRef.for_url(url).repo_key, chunks, vectors, blob_shas)


def new_shard(directory: Path, *, wal: bool = True, indexes: bool = True) -> qe.EdgeShard:
    """A fresh shard laid out as `EdgeChunkStore` lays it out."""
    config = qe.EdgeConfig(
        vectors={DENSE_VECTOR: qe.EdgeVectorParams(size=384, distance=qe.Distance.Cosine)},
        sparse_vectors={SPARSE_VECTOR: qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf)},
        wal_enabled=None if wal else False,
    )
    shard = qe.EdgeShard.create(str(directory), config)
    if indexes:
        create_indexes(shard)
    return shard


def create_indexes(shard: qe.EdgeShard) -> None:
    for field in IndexedField:
        shard.update(qe.UpdateOperation.create_field_index(field.value, _index_schema(field)))


def engine_points(points: Sequence[ChunkPoint], stored: Sequence[dict[str, Any]]) -> list[qe.Point]:
    return [
        qe.Point(point.id, {SPARSE_VECTOR: qe.SparseVector(point.sparse.indices, point.sparse.values)}, payload)
        for point, payload in zip(points, stored, strict=True)
    ]


def write(shard: qe.EdgeShard, converted: list[qe.Point], batch: int) -> None:
    for part in batches(converted, batch):
        shard.update(qe.UpdateOperation.upsert_points(part))


def one_round(scratch: Path, points: list[ChunkPoint]) -> dict[str, Times]:
    """The write as the store does it, part by part."""
    figures: dict[str, Times] = {}
    directory = Path(tempfile.mkdtemp(dir=scratch))
    shard = new_shard(directory / "shard")
    stored, figures["payload dicts"] = timed(lambda: [payload_to_stored(point.payload) for point in points])
    converted, figures["engine points"] = timed(lambda: engine_points(points, stored))
    operations, figures["operations"] = timed(
        lambda: [qe.UpdateOperation.upsert_points(part) for part in batches(converted, WRITE_BATCH)]
    )
    _, figures["engine update"] = timed(lambda: [shard.update(operation) for operation in operations])
    _, figures["flush"] = timed(shard.flush)
    _, figures["close"] = timed(shard.close)
    shutil.rmtree(directory)
    return figures


def variant_round(scratch: Path, converted: list[qe.Point]) -> dict[str, Times]:
    """The engine update (operations included) in each variant, on the same engine points."""
    figures: dict[str, Times] = {}
    cases: dict[str, tuple[dict[str, bool], int]] = {
        f"as stored (batch {WRITE_BATCH})": ({}, WRITE_BATCH),
        "no payload indexes": ({"indexes": False}, WRITE_BATCH),
        "WAL off (+ flush)": ({"wal": False}, WRITE_BATCH),
        "batch 64": ({}, 64),
        "batch 4096": ({}, 4096),
        "one call": ({}, len(converted)),
    }
    for name, (options, batch) in cases.items():
        directory = Path(tempfile.mkdtemp(dir=scratch))
        shard = new_shard(directory / "shard", **options)
        _, figures[name] = timed(lambda: write(shard, converted, batch))  # noqa: B023  # called at once
        if not options.get("wal", True):
            _, flushed = timed(shard.flush)
            figures[name] = (figures[name][0] + flushed[0], figures[name][1] + flushed[1])
        shard.close()
        shutil.rmtree(directory)
    directory = Path(tempfile.mkdtemp(dir=scratch))
    shard = new_shard(directory / "shard", indexes=False)
    _, written = timed(lambda: write(shard, converted, WRITE_BATCH))
    _, indexed = timed(lambda: create_indexes(shard))
    figures["indexes after the write"] = (written[0] + indexed[0], written[1] + indexed[1])
    shard.close()
    shutil.rmtree(directory)
    return figures


def spinner_share(scratch: Path, converted: list[qe.Point]) -> float:
    """A Python thread's spin rate during one whole-write engine call, as a share of its rate alone."""
    counter = [0]
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            counter[0] += 1

    directory = Path(tempfile.mkdtemp(dir=scratch))
    shard = new_shard(directory / "shard")
    operation = qe.UpdateOperation.upsert_points(converted)
    spinner = threading.Thread(target=spin)
    spinner.start()
    time.sleep(0.5)
    counter[0] = 0
    time.sleep(1.0)
    alone = counter[0] / 1.0
    counter[0] = 0
    started = time.perf_counter()
    shard.update(operation)
    during = counter[0] / (time.perf_counter() - started)
    stop.set()
    spinner.join()
    shard.close()
    shutil.rmtree(directory)
    return during / alone if alone else 0.0


def print_minimums(title: str, rounds: list[dict[str, Times]]) -> None:
    print(title)
    for name in rounds[0]:
        cpu = min(figures[name][0] for figures in rounds)
        wall = min(figures[name][1] for figures in rounds)
        print(f"  {name:28s} CPU {cpu:6.3f} s   wall {wall:6.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", required=True, help="path of a (bare) git repository")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per figure (the minimum is printed)")
    args = parser.parse_args()
    url = Path(args.repo).absolute().as_uri()
    with tempfile.TemporaryDirectory(prefix="sextant-bench-write-") as tmp:
        scratch = Path(tmp)
        points = repository_points(scratch, url)
        print(f"{len(points):,} points of {args.repo}")
        rounds = [one_round(scratch, points) for _ in range(max(1, args.rounds))]
        print_minimums("the write, part by part (minimum of the rounds)", rounds)
        converted = engine_points(points, [payload_to_stored(point.payload) for point in points])
        variants = [variant_round(scratch, converted) for _ in range(max(1, args.rounds))]
        print_minimums("the engine update in variants (operations included)", variants)
        share = spinner_share(scratch, converted)
        print(f"a Python thread's spin rate during one whole-write engine call: {100 * share:.1f}% of its rate alone")


if __name__ == "__main__":
    sys.exit(main())
