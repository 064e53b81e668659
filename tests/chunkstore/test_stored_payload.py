"""How a payload is stored: the fields filters and partial reads need on their own, the file-version fields
as one value, the rest as another; and points written in the earlier shapes (every field on its own; the
file-version fields on their own) read as before."""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest
import qdrant_edge as qe

from sextant.chunkstore import ChunkPayload, ChunkPoint, DenseUpdate, FileEntry
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.chunkstore.schema import (
    FILE_VERSION_FIELD,
    FRESHNESS_FIELD,
    PACKED_FIELD,
    SPARSE_VECTOR,
    IndexedField,
    payload_from_stored,
    payload_to_stored,
)

MakePoint = Callable[..., ChunkPoint]

_EVERY_FIELD = {
    "symbol": "Session.close",
    "symbol_type": "method",
    "parent": "Session",
    "package": "acme.session",
    "signature": "def close(self) -> None:",
    "docstring": "Close it.",
    "annotations": ["@final"],
    "window": 1,
    "window_count": 2,
    "last_modified_at": "2025-01-02T03:04:05+00:00",
    "file_chunk_count": 1,
    "run_id": "run-1",
    "file_added": True,
    "dense_prefix": "# acme/session.py\n",
    "symbol_last_modified_at": None,
    "symbol_date_source": "file",
}


def test_only_filtered_and_partly_read_fields_are_stored_on_their_own(make_point: MakePoint) -> None:
    payload = make_point("r", "acme/session.py", **_EVERY_FIELD).payload

    stored = payload_to_stored(payload)

    alone = {field.value for field in IndexedField} | {FRESHNESS_FIELD}
    assert set(stored) == alone | {FILE_VERSION_FIELD, PACKED_FIELD}
    assert isinstance(stored[PACKED_FIELD], str)
    assert msgspec.json.decode(stored[FILE_VERSION_FIELD]) == {
        "blob_sha": payload.blob_sha,
        "file_chunk_count": 1,
        "run_id": "run-1",
        "file_added": True,
    }
    assert payload_from_stored(stored) == payload


def test_a_field_stored_on_its_own_wins_over_the_packed_value(make_point: MakePoint) -> None:
    payload = make_point("r", "a.py", last_modified_at="2025-01-01T00:00:00+00:00").payload
    stored = payload_to_stored(payload)

    stored["last_modified_at"] = None  # re-stamped in place: age unknown

    assert payload_from_stored(stored).last_modified_at is None


def _every_field_on_its_own(payload: ChunkPayload) -> dict[str, object]:
    fields = msgspec.structs.asdict(payload)
    return {key: value for key, value in fields.items() if value is not msgspec.UNSET}


def _freshness_on_its_own(payload: ChunkPayload) -> dict[str, object]:
    return payload_to_stored(payload)  # as the embedded store wrote it before `indexed_at` went under `file`


def _file_version_fields_on_their_own(payload: ChunkPayload) -> dict[str, object]:
    stored = payload_to_stored(payload)
    stored.update(msgspec.json.decode(stored.pop(FILE_VERSION_FIELD)))
    return stored


def test_the_embedded_store_keeps_indexed_at_among_the_file_version_fields(
    tmp_path: Path, make_point: MakePoint
) -> None:
    point = make_point("r", "acme/session.py", **_EVERY_FIELD)
    stored = payload_to_stored(point.payload, freshness_alone=False)
    assert FRESHNESS_FIELD not in stored
    assert msgspec.json.decode(stored[FILE_VERSION_FIELD])[FRESHNESS_FIELD] == point.payload.indexed_at
    assert payload_from_stored(stored) == point.payload

    store = EdgeChunkStore(tmp_path, "c", 8)
    store.upsert([point])
    store.close()
    shard = qe.EdgeShard.load(str(tmp_path / "c"))
    try:
        [record] = shard.retrieve([point.id], True, False)
    finally:
        shard.close()
    assert record.payload == stored


@pytest.mark.parametrize(
    "earlier_shape", [_every_field_on_its_own, _file_version_fields_on_their_own, _freshness_on_its_own]
)
def test_points_stored_in_an_earlier_shape_still_read(
    tmp_path: Path, make_point: MakePoint, earlier_shape: Callable[[ChunkPayload], dict[str, object]]
) -> None:
    old = make_point("r", "acme/session.py", **_EVERY_FIELD)
    new = make_point("r", "acme/other.py", start_line=5, symbol="other", run_id="run-2", file_added=True)
    EdgeChunkStore(tmp_path, "c", 8).close()  # the collection and its payload indexes, as a store makes them
    shard = qe.EdgeShard.load(str(tmp_path / "c"))
    vectors = {SPARSE_VECTOR: qe.SparseVector(old.sparse.indices, old.sparse.values)}
    shard.update(qe.UpdateOperation.upsert_points([qe.Point(old.id, vectors, earlier_shape(old.payload))]))
    shard.flush()
    shard.close()

    store = EdgeChunkStore(tmp_path, "c", 8)
    try:
        store.upsert([new])

        assert {payload.path: payload for payload in store.scroll_payloads("r")} == {
            "acme/session.py": old.payload,
            "acme/other.py": new.payload,
        }
        files = store.file_index("r")
        assert files["acme/session.py"] == FileEntry(
            blob_sha=old.payload.blob_sha,
            point_ids=frozenset({old.id}),
            last_modified_at="2025-01-02T03:04:05+00:00",
            run_id="run-1",
            added_by_run=True,
        )
        assert files["acme/other.py"] == FileEntry(
            blob_sha=new.payload.blob_sha, point_ids=frozenset({new.id}), run_id="run-2", added_by_run=True
        )
        assert [payload.path for payload in store.find_symbols("r", "Session.")] == []
        assert [payload.path for payload in store.find_symbols("r", "Session", prefix=True)] == ["acme/session.py"]
        assert store.set_last_modified("r", {"acme/session.py": None, "acme/other.py": "2026-02-03"}) == 2
        stamps = {payload.path: payload.last_modified_at for payload in store.scroll_payloads("r")}
        assert stamps == {"acme/session.py": None, "acme/other.py": "2026-02-03"}
        assert store.count_missing_dense("r") == 1
        # The dense phase's check reads each shape's indexed_at: a vector of a rewritten point is refused.
        stale = DenseUpdate(id=old.id, dense=[1.0] * 8, indexed_at="an earlier run")
        assert store.add_dense_vectors([stale]) == 0
        fresh = [DenseUpdate(id=p.id, dense=[1.0] * 8, indexed_at=p.payload.indexed_at) for p in (old, new)]
        assert store.add_dense_vectors(fresh) == 2
        assert store.count_missing_dense("r") == 0
    finally:
        store.close()


def test_points_and_their_parts_stay_out_of_the_cyclic_collector(make_point: MakePoint) -> None:
    # A first index holds one of each per chunk; none can be in a cycle, so none should cost the
    # collector a visit (see sextant.chunkstore.payload).
    point = make_point("r", "acme/session.py", **_EVERY_FIELD)
    assert not gc.is_tracked(point)
    assert not gc.is_tracked(point.payload)
    assert not gc.is_tracked(point.sparse)
    assert not gc.is_tracked(payload_from_stored(payload_to_stored(point.payload)))
