"""A process that waits for the embedded store while another writes it sees every write once it opens.

The waiting process retries its open while the holder adds dense vectors page by page and closes, as
a service does that opens the shared store for one delivery. An open the engine itself refused used to
leave the segments it had read behind in the waiting process, whose next open then showed the store
as it was before the holder's writes (seen with qdrant-edge-py 0.9: the vectors of the first page only).
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


@pytest.mark.process
@pytest.mark.parametrize("round_number", range(ROUNDS))
def test_a_process_waiting_to_open_the_store_sees_the_vectors_written_meanwhile(
    tmp_path: Path, round_number: int
) -> None:
    store = EdgeChunkStore(tmp_path, "c", DIMENSION)
    store.upsert(_sparse_only_points(POINTS))
    store.close()
    writer = _start(_ADD_VECTORS_THEN_CLOSE, tmp_path)
    assert _read_line(writer) == "opened"
    reader = _start(_OPEN_WHEN_FREE_THEN_COUNT, tmp_path)
    assert _read_line(reader) == "waiting"  # refused once; it retries while the writer writes

    writer.communicate("write\n", timeout=120)
    seen, _ = reader.communicate(timeout=120)

    assert (writer.returncode, reader.returncode) == (0, 0)
    assert seen.split() == [str(POINTS), "0"]
