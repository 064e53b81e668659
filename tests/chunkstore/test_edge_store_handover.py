"""Writes made while another process waits to open the embedded store are kept and seen.

The waiting process retries its open while the holder writes page by page and closes, as a service
does that opens the shared store for one delivery. With qdrant-edge-py 0.9, an open the engine itself
refused while another process wrote (it takes its lock part-way through) made that process's next
open show the store as of the refusal: the vectors of the first page only. On the bare engine, points
upserted after such a refusal were even lost for every process (10 of 300 kept); the upsert case here
guards that too.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from sextant.chunkstore import ChunkPayload, ChunkPoint, SparseVector, point_id
from sextant.chunkstore.edge_store import EdgeChunkStore

POINTS = 300
ROUNDS = 5
DIMENSION = 256

_ADD_VECTORS_THEN_CLOSE = """
import sys
from pathlib import Path
from sextant.chunkstore import DenseUpdate
from sextant.chunkstore.edge_store import EdgeChunkStore
store = EdgeChunkStore(Path(sys.argv[1]), "c", 256)
missing = list(store.scroll_missing_dense("r"))
print("opened", flush=True)
sys.stdin.readline()
for start in range(0, len(missing), 10):  # page by page, as the embedder service writes them
    store.add_dense_vectors(
        [DenseUpdate(id=c.id, dense=[1.0] * 256, indexed_at=c.payload.indexed_at)
         for c in missing[start:start + 10]]
    )
store.close()
"""

_UPSERT_THEN_CLOSE = """
import sys
from pathlib import Path
from sextant.chunkstore import ChunkPayload, ChunkPoint, SparseVector, point_id
from sextant.chunkstore.edge_store import EdgeChunkStore
store = EdgeChunkStore(Path(sys.argv[1]), "c", 256)
print("opened", flush=True)
sys.stdin.readline()
for start in range(0, 300, 10):  # page by page, as the indexer writes a run's files
    store.upsert([
        ChunkPoint(
            id=point_id("r", f"f{i}.py", None, 1, 0),
            dense=[1.0] * 256,
            sparse=SparseVector(indices=[i], values=[1.0]),
            payload=ChunkPayload(repo_key="r", path=f"f{i}.py", blob_sha="b", kind="code", language="python",
                                 start_line=1, end_line=2, text="x", indexed_at="2026-01-01T00:00:00Z"),
        )
        for i in range(start, start + 10)
    ])
store.close()
"""

_OPEN_WHEN_FREE_THEN_COUNT = """
import sys, time
from pathlib import Path
from sextant.chunkstore.edge_store import EdgeChunkStore, StoreHeldError
announced = False
while True:
    try:
        store = EdgeChunkStore(Path(sys.argv[1]), "c", 256)
        break
    except StoreHeldError:
        if not announced:
            print("waiting", flush=True)
            announced = True
        time.sleep(0.001)
print(store.count("r"), store.count_missing_dense("r"), flush=True)
store.close()
"""


def _sparse_only_points(count: int) -> list[ChunkPoint]:
    return [
        ChunkPoint(
            id=point_id("r", f"f{i}.py", None, 1, 0),
            dense=None,
            sparse=SparseVector(indices=[i], values=[1.0]),
            payload=ChunkPayload(
                repo_key="r",
                path=f"f{i}.py",
                blob_sha="b",
                kind="code",
                language="python",
                start_line=1,
                end_line=2,
                text="x",
                indexed_at="2026-01-01T00:00:00Z",
            ),
        )
        for i in range(count)
    ]


def _start(script: str, folder: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", script, str(folder)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )


def _read_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    return process.stdout.readline().strip()


def _hand_over(folder: Path, writer_script: str) -> str:
    writer = _start(writer_script, folder)
    assert _read_line(writer) == "opened"
    reader = _start(_OPEN_WHEN_FREE_THEN_COUNT, folder)
    assert _read_line(reader) == "waiting"  # refused once; it retries while the writer writes

    writer.communicate("write\n", timeout=120)
    seen, _ = reader.communicate(timeout=120)

    assert (writer.returncode, reader.returncode) == (0, 0)
    return seen


def _count_and_missing(folder: Path) -> list[str]:
    store = EdgeChunkStore(folder, "c", DIMENSION)
    try:
        return [str(store.count("r")), str(store.count_missing_dense("r"))]
    finally:
        store.close()


@pytest.mark.process
@pytest.mark.parametrize("round_number", range(ROUNDS))
def test_a_process_waiting_to_open_the_store_sees_the_vectors_written_meanwhile(
    tmp_path: Path, round_number: int
) -> None:
    store = EdgeChunkStore(tmp_path, "c", DIMENSION)
    store.upsert(_sparse_only_points(POINTS))
    store.close()

    seen = _hand_over(tmp_path, _ADD_VECTORS_THEN_CLOSE)

    assert seen.split() == [str(POINTS), "0"]
    assert _count_and_missing(tmp_path) == [str(POINTS), "0"]


@pytest.mark.process
@pytest.mark.parametrize("round_number", range(ROUNDS))
def test_points_written_while_another_process_waits_to_open_the_store_are_kept(
    tmp_path: Path, round_number: int
) -> None:
    EdgeChunkStore(tmp_path, "c", DIMENSION).close()

    seen = _hand_over(tmp_path, _UPSERT_THEN_CLOSE)

    assert seen.split() == [str(POINTS), "0"]
    assert _count_and_missing(tmp_path) == [str(POINTS), "0"]
