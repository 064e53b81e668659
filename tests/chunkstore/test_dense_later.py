"""Points stored before their dense vector: the contract every adapter meets for the two-phase write."""

from __future__ import annotations

from collections.abc import Callable

import msgspec
from qdrant_client import models

from sextant.chunkstore import ChunkPoint, ChunkStore, DenseUpdate, SparseVector, dense_text_of
from sextant.chunkstore.file_index import INCOMPLETE
from sextant.chunkstore.server_store import _points_to_send

MakePoint = Callable[..., ChunkPoint]
DIMENSION = 8


def _sparse_only(point: ChunkPoint) -> ChunkPoint:
    return msgspec.structs.replace(point, dense=None)


def _vector(axis: int) -> list[float]:
    vector = [0.0] * DIMENSION
    vector[axis % DIMENSION] = 1.0
    return vector


def _update(point: ChunkPoint, axis: int) -> DenseUpdate:
    return DenseUpdate(id=point.id, dense=_vector(axis), indexed_at=point.payload.indexed_at)


def test_points_without_dense_are_counted_scrolled_and_found_by_sparse_search(
    store: ChunkStore, make_point: MakePoint
) -> None:
    points = [_sparse_only(make_point("r", f"m{i}.py", start_line=i + 1)) for i in range(5)]
    other = make_point("other", "x.py")
    store.upsert([*points, other])

    assert store.count("r") == 5
    assert store.count_missing_dense("r") == 5
    assert store.count_missing_dense("other") == 0
    missing = list(store.scroll_missing_dense("r", page_size=2))
    assert sorted(chunk.id for chunk in missing) == sorted(point.id for point in points)
    assert {chunk.id: chunk.payload for chunk in missing} == {point.id: point.payload for point in points}
    hits = store.search_chunks("r", sparse=points[2].sparse, limit=3)
    assert hits[0].id == points[2].id
    assert store.search_chunks("r", sparse=SparseVector(indices=[], values=[])) == []


def test_add_dense_vectors_completes_points_and_leaves_payload_and_sparse_alone(
    store: ChunkStore, make_point: MakePoint
) -> None:
    points = [_sparse_only(make_point("r", f"m{i}.py", start_line=i + 1)) for i in range(4)]
    store.upsert(points)

    written = store.add_dense_vectors([_update(point, i) for i, point in enumerate(points)])

    assert written == 4
    assert store.count_missing_dense("r") == 0
    assert list(store.scroll_missing_dense("r")) == []
    stored = {payload.path: payload for payload in store.scroll_payloads("r")}
    assert stored == {point.payload.path: point.payload for point in points}
    dense_hit = store.hybrid_search("r", _vector(3), SparseVector(indices=[], values=[]), limit=1)
    assert dense_hit[0].id == points[3].id
    assert store.search_chunks("r", sparse=points[1].sparse, limit=1)[0].id == points[1].id


def test_add_dense_vectors_skips_rewritten_and_deleted_points(store: ChunkStore, make_point: MakePoint) -> None:
    kept, rewritten, deleted = (_sparse_only(make_point("r", f"m{i}.py", start_line=i + 1)) for i in range(3))
    store.upsert([kept, rewritten, deleted])
    updates = [_update(kept, 0), _update(rewritten, 1), _update(deleted, 2)]
    newer = msgspec.structs.replace(rewritten.payload, text="changed", indexed_at="2026-02-02T00:00:00Z")
    store.upsert([msgspec.structs.replace(rewritten, payload=newer)])
    store.delete_points([deleted.id])

    written = store.add_dense_vectors(updates)

    assert written == 1
    assert [chunk.id for chunk in store.scroll_missing_dense("r")] == [rewritten.id]
    assert store.count("r") == 2


def test_missing_dense_scroll_is_lazy_so_vectors_added_between_pages_lose_nothing(
    store: ChunkStore, make_point: MakePoint
) -> None:
    points = [_sparse_only(make_point("r", f"m{i % 7}.py", start_line=i + 1)) for i in range(30)]
    store.upsert(points)
    seen: list[str] = []

    for chunk in store.scroll_missing_dense("r", page_size=4):
        seen.append(chunk.id)
        store.add_dense_vectors([DenseUpdate(id=chunk.id, dense=_vector(1), indexed_at=chunk.payload.indexed_at)])

    assert sorted(seen) == sorted(point.id for point in points)
    assert store.count_missing_dense("r") == 0


def test_a_file_with_fewer_points_than_its_chunk_count_is_incomplete(store: ChunkStore, make_point: MakePoint) -> None:
    whole = [make_point("r", "whole.py", start_line=i + 1, file_chunk_count=3) for i in range(3)]
    cut = [make_point("r", "cut.py", start_line=i + 1, file_chunk_count=3) for i in range(2)]
    legacy = [make_point("r", "legacy.py", start_line=i + 1) for i in range(2)]
    store.upsert([*whole, *cut, *legacy])

    index = store.file_index("r")

    assert index["whole.py"].blob_sha == "a" * 40
    assert index["cut.py"].blob_sha == INCOMPLETE
    assert index["cut.py"].point_ids == frozenset(point.id for point in cut)
    assert index["legacy.py"].blob_sha == "a" * 40  # written before the count existed: trusted


def test_file_index_reports_the_run_that_wrote_a_file(store: ChunkStore, make_point: MakePoint) -> None:
    store.upsert(
        [
            make_point("r", "new.py", run_id="run-1", file_added=True),
            make_point("r", "old.py", run_id="run-1"),
            make_point("r", "mixed.py", start_line=1, run_id="run-1"),
            make_point("r", "mixed.py", start_line=2, run_id="run-0"),
        ]
    )

    index = store.file_index("r")

    assert (index["new.py"].run_id, index["new.py"].added_by_run) == ("run-1", True)
    assert (index["old.py"].run_id, index["old.py"].added_by_run) == ("run-1", False)
    assert index["mixed.py"].run_id == ""


def test_dense_text_is_the_prefix_and_the_text_unless_stored_whole(make_point: MakePoint) -> None:
    with_prefix = make_point("r", "a.py", dense_prefix="# a.py\n", text="x = 1\n").payload
    whole = make_point("r", "a.py", dense_prefix="ignored", dense_text="whole text", text="x = 1\n").payload

    assert dense_text_of(with_prefix) == "# a.py\nx = 1\n"
    assert dense_text_of(whole) == "whole text"


def test_the_server_adapter_sends_a_uniform_batch_as_columns_and_a_mixed_one_as_points(make_point: MakePoint) -> None:
    # Columns cost the client far less; a Batch has no place for a vector one point lacks.
    with_dense = [make_point("r", f"d{i}.py", dense=_vector(i)) for i in range(3)]
    sparse_only = [_sparse_only(make_point("r", f"s{i}.py")) for i in range(3)]
    for uniform in (with_dense, sparse_only):
        sent = _points_to_send(uniform)
        assert isinstance(sent, models.Batch)
        assert sent.ids == [point.id for point in uniform]
    mixed = _points_to_send([*with_dense, *sparse_only])
    assert isinstance(mixed, list)
    assert [point.id for point in mixed] == [point.id for point in [*with_dense, *sparse_only]]
