"""The one contract every chunk store adapter must meet."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import msgspec
import pytest

from sextant.chunkstore import ChunkPayload, ChunkPoint, ChunkStore, SparseVector

MakePoint = Callable[..., ChunkPoint]


def _by_id(store: ChunkStore, repo_key: str) -> dict[tuple[str, int], ChunkPayload]:
    return {(payload.path, payload.start_line): payload for payload in store.scroll_payloads(repo_key)}


def test_empty_store_reads_nothing(store: ChunkStore) -> None:
    assert store.count("r") == 0
    assert list(store.scroll_payloads("r")) == []
    assert store.file_index("r") == {}
    assert store.hybrid_search("r", [1.0] * 8, SparseVector(indices=[1], values=[1.0])) == []
    store.upsert([])
    store.delete_points([])
    assert store.delete_paths("r", []) == 0


def test_scroll_paginates_over_every_point_without_duplicates(store: ChunkStore, make_point: MakePoint) -> None:
    points = [make_point("r", f"src/m{i % 40}.py", start_line=i + 1) for i in range(600)]
    store.upsert(points)

    default_pages = list(store.scroll_payloads("r"))
    small_pages = list(store.scroll_payloads("r", page_size=7))

    assert store.count("r") == 600
    assert sorted(p.start_line for p in default_pages) == list(range(1, 601))
    assert sorted(p.start_line for p in small_pages) == list(range(1, 601))
    assert {(p.path, p.start_line): p for p in default_pages} == {
        (p.payload.path, p.payload.start_line): p.payload for p in points
    }


def test_payload_round_trip_keeps_absent_null_and_dated_apart(store: ChunkStore, make_point: MakePoint) -> None:
    absent = make_point("r", "skipped.py")
    unknown = make_point("r", "unknown.py", last_modified_at=None)
    dated = make_point("r", "dated.py", last_modified_at="2025-03-04T05:06:07+00:00")
    store.upsert([absent, unknown, dated])

    stored = {payload.path: payload for payload in store.scroll_payloads("r")}

    assert stored["skipped.py"].last_modified_at is msgspec.UNSET
    assert stored["unknown.py"].last_modified_at is None
    assert stored["dated.py"].last_modified_at == "2025-03-04T05:06:07+00:00"
    assert stored["dated.py"] == dated.payload


def test_payload_round_trip_keeps_every_field_and_odd_paths(store: ChunkStore, make_point: MakePoint) -> None:
    paths = ["docs/über uns.md", "src/日本語/模块.py", "with space/and'quote\".ts", "emoji/🚀.rs"]
    points = [
        make_point(
            "r",
            path,
            start_line=i + 1,
            symbol=f"Sym{i}",
            kind="doc" if path.endswith(".md") else "code",
            symbol_type="method",
            parent="Outer",
            package="pkg.sub",
            signature=f"def sym{i}(x: int) -> str:",
            docstring="Ünïcödé docstring",
            annotations=["@cached", "@route('/x')"],
            window=1,
            window_count=3,
            text="print('héllo')\n\tx = {'a': [1, 2]}\n",
            last_modified_at="2024-12-31",
        )
        for i, path in enumerate(paths)
    ]
    store.upsert(points)

    assert sorted(store.scroll_payloads("r"), key=lambda p: p.start_line) == [p.payload for p in points]
    assert set(store.file_index("r")) == set(paths)


def test_file_index_maps_paths_to_blob_and_point_ids(store: ChunkStore, make_point: MakePoint) -> None:
    a = [make_point("r", "a.py", start_line=n, blob_sha="1" * 40) for n in (1, 20, 40)]
    b = [make_point("r", "b/b.md", start_line=1, blob_sha="2" * 40, kind="doc")]
    store.upsert([*a, *b])

    index = store.file_index("r")

    assert set(index) == {"a.py", "b/b.md"}
    assert index["a.py"].blob_sha == "1" * 40
    assert index["a.py"].point_ids == {p.id for p in a}
    assert index["b/b.md"].point_ids == {b[0].id}


def test_file_index_flags_a_file_whose_points_disagree_on_the_blob(store: ChunkStore, make_point: MakePoint) -> None:
    # An upsert-then-delete interrupted between its two steps leaves old and new points side by side.
    store.upsert([make_point("r", "a.py", start_line=1, blob_sha="1" * 40)])
    store.upsert([make_point("r", "a.py", start_line=5, blob_sha="2" * 40)])

    assert store.file_index("r")["a.py"].blob_sha == ""


def test_file_index_spans_many_pages(store: ChunkStore, make_point: MakePoint) -> None:
    store.upsert([make_point("r", f"f{i % 300}.py", start_line=i) for i in range(1500)])

    index = store.file_index("r")

    assert len(index) == 300
    assert sum(len(entry.point_ids) for entry in index.values()) == 1500


def test_file_index_carries_each_files_stored_stamp(store: ChunkStore, make_point: MakePoint) -> None:
    store.upsert(
        [
            *[make_point("r", "skipped.py", start_line=n) for n in (1, 2)],
            *[make_point("r", "unknown.py", start_line=n, last_modified_at=None) for n in (1, 2)],
            *[make_point("r", "dated.py", start_line=n, last_modified_at="2025-01-02") for n in (1, 2)],
            make_point("r", "mixed.py", start_line=1, last_modified_at="2025-01-02"),
            make_point("r", "mixed.py", start_line=2),
            make_point("r", "half.py", start_line=1, last_modified_at=None),
            make_point("r", "half.py", start_line=2),
        ]
    )

    index = store.file_index("r")

    assert index["skipped.py"].last_modified_at is msgspec.UNSET
    assert index["unknown.py"].last_modified_at is None
    assert index["dated.py"].last_modified_at == "2025-01-02"
    assert not any(index[path].last_modified_mixed for path in ("skipped.py", "unknown.py", "dated.py"))
    assert index["mixed.py"].last_modified_mixed
    assert index["half.py"].last_modified_mixed  # absent and null are different stamps


def test_set_last_modified_restamps_in_place(store: ChunkStore, make_point: MakePoint) -> None:
    absent = [make_point("r", "absent.py", start_line=n) for n in (1, 2)]
    dated = [make_point("r", "dated.md", start_line=n, kind="doc", last_modified_at="2024-01-01") for n in (3, 4)]
    unknown = [make_point("r", "unknown.py", start_line=5, last_modified_at=None)]
    untouched = [make_point("r", "untouched.py", start_line=6, last_modified_at="2023-03-03")]
    elsewhere = [make_point("other", "absent.py", start_line=1), make_point("other", "dated.md", start_line=3)]
    store.upsert([*absent, *dated, *unknown, *untouched, *elsewhere])

    touched = store.set_last_modified(
        "r",
        {
            "absent.py": "2025-05-05T10:00:00+00:00",
            "dated.md": None,
            "unknown.py": "2025-06-06T11:00:00+00:00",
            "never/stored.py": "2025-05-05T10:00:00+00:00",
        },
    )

    assert touched == 5
    assert store.count("r") == 6
    assert store.count("other") == 2
    expected = {
        **{p.id: msgspec.structs.replace(p.payload, last_modified_at="2025-05-05T10:00:00+00:00") for p in absent},
        **{p.id: msgspec.structs.replace(p.payload, last_modified_at=None) for p in dated},
        **{p.id: msgspec.structs.replace(p.payload, last_modified_at="2025-06-06T11:00:00+00:00") for p in unknown},
        untouched[0].id: untouched[0].payload,
    }
    assert _by_id(store, "r") == {(p.path, p.start_line): p for p in expected.values()}
    assert list(store.scroll_payloads("other")) == [p.payload for p in sorted(elsewhere, key=lambda p: p.id)]
    for point in [*absent, *dated, *unknown]:  # vectors untouched: each point is still its own best match
        hits = store.hybrid_search("r", point.dense, point.sparse, limit=1)
        assert (hits[0].id, hits[0].payload) == (point.id, expected[point.id])
    index = store.file_index("r")
    assert index["dated.md"].last_modified_at is None
    assert index["absent.py"].last_modified_at == "2025-05-05T10:00:00+00:00"
    assert store.set_last_modified("r", {}) == 0


def test_set_last_modified_covers_many_files_at_once(store: ChunkStore, make_point: MakePoint) -> None:
    # The first run after turning recency on stamps every file: more paths than one write batch holds.
    store.upsert([make_point("r", f"f{i}.py", start_line=i, last_modified_at="2020-01-01") for i in range(700)])
    stamps: dict[str, str | None] = {f"f{i}.py": None if i % 3 == 0 else f"2025-01-{1 + i % 2:02d}" for i in range(700)}

    assert store.set_last_modified("r", stamps) == 700

    stored = {payload.path: payload.last_modified_at for payload in store.scroll_payloads("r")}
    assert stored == stamps
    assert store.count("r") == 700


def test_reupserting_the_same_ids_replaces_instead_of_duplicating(store: ChunkStore, make_point: MakePoint) -> None:
    first = [make_point("r", "a.py", start_line=n) for n in range(1, 11)]
    store.upsert(first)
    again = [make_point("r", "a.py", start_line=n, text="changed") for n in range(1, 11)]
    store.upsert(again)
    store.upsert(again)

    assert store.count("r") == 10
    assert {p.text for p in store.scroll_payloads("r")} == {"changed"}


def test_delete_points_removes_exactly_those(store: ChunkStore, make_point: MakePoint) -> None:
    points = [make_point("r", "a.py", start_line=n) for n in range(1, 6)]
    store.upsert(points)

    store.delete_points([points[0].id, points[3].id, "00000000-0000-0000-0000-000000000000"])

    assert {p.start_line for p in store.scroll_payloads("r")} == {2, 3, 5}


def test_upsert_then_delete_replaces_a_file_without_a_gap(store: ChunkStore, make_point: MakePoint) -> None:
    store.upsert([make_point("r", "a.py", start_line=n, blob_sha="1" * 40) for n in (1, 10)])
    old = store.file_index("r")["a.py"]
    new = [make_point("r", "a.py", start_line=n, blob_sha="2" * 40) for n in (1, 30)]

    store.upsert(new)
    assert store.count("r") == 3  # old and new side by side: the file is never missing
    store.delete_points(old.point_ids - {p.id for p in new})

    entry = store.file_index("r")["a.py"]
    assert entry.blob_sha == "2" * 40
    assert entry.point_ids == {p.id for p in new}


def test_delete_paths_counts_and_spares_other_files_and_repos(store: ChunkStore, make_point: MakePoint) -> None:
    store.upsert(
        [
            *[make_point("r", "gone/a.py", start_line=n) for n in (1, 2, 3)],
            make_point("r", "gone b.md", start_line=1),
            make_point("r", "kept.py", start_line=1),
            make_point("other", "gone/a.py", start_line=1),
        ]
    )

    deleted = store.delete_paths("r", ["gone/a.py", "gone b.md", "never/existed.py"])

    assert deleted == 4
    assert set(store.file_index("r")) == {"kept.py"}
    assert store.count("other") == 1
    assert store.delete_paths("r", ["gone/a.py"]) == 0


def test_repositories_are_isolated(store: ChunkStore, make_point: MakePoint) -> None:
    store.upsert([make_point("alpha", "same.py", start_line=n) for n in range(1, 4)])
    store.upsert([make_point("beta", "same.py", start_line=n) for n in range(1, 6)])

    assert store.count("alpha") == 3
    assert store.count("beta") == 5
    assert {p.repo_key for p in store.scroll_payloads("alpha")} == {"alpha"}
    assert store.file_index("alpha")["same.py"].point_ids.isdisjoint(store.file_index("beta")["same.py"].point_ids)
    hits = store.hybrid_search("alpha", [1.0] + [0.0] * 7, SparseVector(indices=[1], values=[1.0]))
    assert {hit.payload.repo_key for hit in hits} == {"alpha"}
    assert store.count("gamma") == 0


def _noise(i: int) -> list[float]:
    # Spread the decoys over the other axes so that none sits near the query direction.
    vector = [0.0] * 8
    vector[1 + i % 7] = 1.0
    vector[1 + (i * 3) % 7] += 0.5
    return vector


def test_hybrid_search_ranks_the_obvious_match_first(store: ChunkStore, make_point: MakePoint) -> None:
    decoys = [
        make_point("r", f"decoy{i}.py", start_line=1, dense=_noise(i), sparse=SparseVector([7, 100 + i], [1.0, 1.0]))
        for i in range(40)
    ]
    target = make_point(
        "r",
        "target.py",
        start_line=1,
        dense=[1.0, 0.05, 0, 0, 0, 0, 0, 0],
        sparse=SparseVector([7, 4242], [1.0, 2.0]),
    )
    store.upsert([*decoys, target])

    hits = store.hybrid_search("r", [0.9, 0.1, 0, 0, 0, 0, 0, 0], SparseVector([4242], [1.0]), limit=10)

    assert hits[0].id == target.id
    assert hits[0].payload == target.payload
    assert len(hits) == 10
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_hybrid_search_finds_a_term_only_the_sparse_side_sees(store: ChunkStore, make_point: MakePoint) -> None:
    dense_match = make_point("r", "dense.py", dense=[1.0, 0, 0, 0, 0, 0, 0, 0], sparse=SparseVector([1], [1.0]))
    sparse_match = make_point("r", "sparse.py", dense=[0, 0, 0, 0, 0, 0, 0, 1.0], sparse=SparseVector([999], [1.0]))
    others = [make_point("r", f"o{i}.py", dense=_noise(i), sparse=SparseVector([1], [1.0])) for i in range(20)]
    store.upsert([dense_match, sparse_match, *others])

    hits = store.hybrid_search("r", [1.0, 0, 0, 0, 0, 0, 0, 0], SparseVector([999], [1.0]), limit=2, prefetch_limit=2)

    assert {hit.id for hit in hits} == {dense_match.id, sparse_match.id}


def test_hybrid_search_with_an_empty_sparse_query_uses_dense_alone(store: ChunkStore, make_point: MakePoint) -> None:
    near = make_point("r", "near.py", dense=[1.0, 0, 0, 0, 0, 0, 0, 0])
    store.upsert([near, *[make_point("r", f"o{i}.py", dense=_noise(i)) for i in range(10)]])

    hits = store.hybrid_search("r", [1.0, 0, 0, 0, 0, 0, 0, 0], SparseVector([], []), limit=3)

    assert hits[0].id == near.id
    assert len(hits) == 3


def test_wrong_dimension_is_refused_before_anything_is_written(store: ChunkStore, make_point: MakePoint) -> None:
    with pytest.raises(ValueError, match="dimensions"):
        store.upsert([make_point("r", "ok.py"), make_point("r", "bad.py", dense=[1.0, 0.0])])
    with pytest.raises(ValueError, match="dimensions"):
        store.hybrid_search("r", [1.0], SparseVector([1], [1.0]))
    assert store.count("r") == 0


def test_reopened_store_sees_the_same_data(
    store_factory: Callable[[], ChunkStore], request: pytest.FixtureRequest, make_point: MakePoint
) -> None:
    if request.node.callspec.params["store_factory"] == "client-local":
        pytest.skip("client local mode in memory does not persist; its path= mode is not the default")
    store = store_factory()
    points = [make_point("r", f"p{i}.py", start_line=i, last_modified_at=None) for i in range(1, 301)]
    store.upsert(points)
    before = sorted(store.scroll_payloads("r"), key=lambda p: p.start_line)
    store.close()

    reopened = store_factory()

    assert reopened.count("r") == 300
    assert sorted(reopened.scroll_payloads("r"), key=lambda p: p.start_line) == before
    assert reopened.file_index("r")["p7.py"].point_ids == {points[6].id}


async def test_store_serves_concurrent_calls_from_worker_threads(store: ChunkStore, make_point: MakePoint) -> None:
    batches = [[make_point("r", f"t{t}.py", start_line=n) for n in range(1, 51)] for t in range(4)]

    async def write_then_read(batch: list[ChunkPoint]) -> int:
        await asyncio.to_thread(store.upsert, batch)
        await asyncio.to_thread(store.hybrid_search, "r", batch[0].dense, batch[0].sparse)
        return len(await asyncio.to_thread(lambda: list(store.scroll_payloads("r", 16))))

    seen = await asyncio.gather(*(write_then_read(batch) for batch in batches))

    assert max(seen) == 200
    assert store.count("r") == 200


def test_close_twice_is_harmless(store: ChunkStore) -> None:
    store.close()
    store.close()
