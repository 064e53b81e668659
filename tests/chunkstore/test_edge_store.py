"""What only the embedded engine must show: crash durability, the directory lock, layout checks."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from sextant.chunkstore import ChunkPoint, SparseVector
from sextant.chunkstore.edge_store import EdgeChunkStore, StoreHeldError

MakePoint = Callable[..., ChunkPoint]

_WRITE_THEN_DIE = """
import os, sys
from pathlib import Path
from sextant.chunkstore import ChunkPayload, ChunkPoint, SparseVector, point_id
from sextant.chunkstore.edge_store import EdgeChunkStore, StoreHeldError
store = EdgeChunkStore(Path(sys.argv[1]), "c", 4)
store.upsert([
    ChunkPoint(
        id=point_id("r", f"f{i}.py", None, 1, 0),
        dense=[1.0, 0.0, 0.0, float(i)],
        sparse=SparseVector(indices=[i], values=[1.0]),
        payload=ChunkPayload(repo_key="r", path=f"f{i}.py", blob_sha="b", kind="code", language="python",
                             start_line=1, end_line=2, text="x", indexed_at="2026-01-01T00:00:00Z"),
    )
    for i in range(500)
])
os._exit(0)  # no close(), no flush: as if the process were killed
"""


@pytest.mark.process
def test_points_survive_a_process_that_dies_without_closing(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-c", _WRITE_THEN_DIE, str(tmp_path)], check=True, timeout=120)

    store = EdgeChunkStore(tmp_path, "c", 4)
    try:
        assert store.count("r") == 500
        assert len(store.file_index("r")) == 500
    finally:
        store.close()


def test_one_directory_is_owned_by_one_open_store(tmp_path: Path) -> None:
    first = EdgeChunkStore(tmp_path, "c", 8)
    try:
        with pytest.raises(StoreHeldError, match="lock"):
            EdgeChunkStore(tmp_path, "c", 8)
    finally:
        first.close()
    EdgeChunkStore(tmp_path, "c", 8).close()  # the lock goes with close()


def test_each_collection_gets_its_own_directory(tmp_path: Path, make_point: MakePoint) -> None:
    small = EdgeChunkStore(tmp_path, "sextant_chunks__a__8", 8)
    large = EdgeChunkStore(tmp_path, "sextant_chunks__b__16", 16)
    try:
        small.upsert([make_point("r", "a.py")])
        assert large.count("r") == 0
        assert small.directory == tmp_path / "sextant_chunks__a__8"
        assert (tmp_path / "sextant_chunks__b__16").is_dir()
    finally:
        small.close()
        large.close()


def test_reopening_with_another_dimension_is_refused(tmp_path: Path) -> None:
    EdgeChunkStore(tmp_path, "c", 8).close()

    with pytest.raises(Exception, match=r"(?i)vector|dim|size"):
        EdgeChunkStore(tmp_path, "c", 16)


def test_a_closed_store_says_so(tmp_path: Path) -> None:
    store = EdgeChunkStore(tmp_path, "c", 8)
    store.close()

    with pytest.raises(RuntimeError, match="closed"):
        store.count("r")
    with pytest.raises(RuntimeError, match="closed"):
        store.hybrid_search("r", [1.0] * 8, SparseVector([1], [1.0]))


def test_optimize_keeps_data_and_search(tmp_path: Path, make_point: MakePoint) -> None:
    store = EdgeChunkStore(tmp_path, "c", 8)
    try:
        points = [make_point("r", f"f{i}.py", start_line=i) for i in range(1, 400)]
        store.upsert(points)
        store.delete_points([p.id for p in points[:100]])
        store.optimize()

        assert store.count("r") == 299
        hits = store.hybrid_search("r", points[200].dense, points[200].sparse, limit=5)
        assert points[200].id in {hit.id for hit in hits}
    finally:
        store.close()
