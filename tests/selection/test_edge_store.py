"""select_analysis_chunks over the real embedded chunk store (qdrant-edge)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec
import pytest

from sextant.chunkstore import ChunkPayload, ChunkPoint, SparseVector, point_id
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.selection import SUMMARY_LIMIT, select_analysis_chunks, select_from_payloads

DIMENSION = 4
MakeFile = Callable[..., list[ChunkPayload]]


@pytest.fixture
def edge_store(tmp_path: Path) -> Iterator[EdgeChunkStore]:
    store = EdgeChunkStore(tmp_path, "sextant_chunks__selection_test__4", DIMENSION)
    yield store
    store.close()


def as_point(payload: ChunkPayload, repo_key: str) -> ChunkPoint:
    payload = msgspec.structs.replace(payload, repo_key=repo_key)
    return ChunkPoint(
        id=point_id(repo_key, payload.path, payload.symbol, payload.start_line, payload.window),
        dense=[1.0, 0.5, 0.25, float(payload.start_line % 7)],
        sparse=SparseVector(indices=[payload.start_line % 50], values=[1.0]),
        payload=payload,
    )


def test_selection_through_the_store_equals_the_pure_core(edge_store: EdgeChunkStore, make_file: MakeFile) -> None:
    payloads = make_file("README.md", 4, "2024-02-01") + make_file("pyproject.toml", 1, None)
    payloads += [p for i in range(40) for p in make_file(f"src/m{i}.py", 3, f"2026-{1 + i % 12:02d}-03")]
    payloads += [p for i in range(20) for p in make_file(f"tests/t{i}.py", 2)]
    payloads += [
        p for i in range(30) for p in make_file(f"docs/d{i}.md", 2, f"2023-{1 + i % 12:02d}-09T08:00:00+02:00")
    ]
    mine = [as_point(payload, "acme") for payload in payloads]
    noise = [as_point(payload, "other") for payload in make_file("README.md", 9, "2026-06-01")]
    edge_store.upsert(mine + noise)

    selection = select_analysis_chunks(edge_store, "acme", SUMMARY_LIMIT, page_size=16)

    assert selection == select_from_payloads([point.payload for point in mine], SUMMARY_LIMIT)
    assert selection.chunks_seen == len(mine)
    assert [chunk.path for chunk in selection.chunks[:4]] == ["README.md"] * 3 + ["pyproject.toml"]
    assert selection.median_code == "2026-06-03"
    assert sum(chunk.kind == "doc" for chunk in selection.chunks) == 8
