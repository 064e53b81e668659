"""Contract of `search_chunks` (either side alone, or both fused; kind filter) and `find_symbols` (exact and
prefix through the symbol index), on every adapter."""

from __future__ import annotations

from sextant.chunkstore import ChunkStore, SparseVector

from .conftest import MakePoint

AXIS_0 = [1.0, 0, 0, 0, 0, 0, 0, 0]
AXIS_7 = [0, 0, 0, 0, 0, 0, 0, 1.0]


def _spread(i: int) -> list[float]:
    vector = [0.0] * 8
    vector[1 + i % 6] = 1.0
    return vector


def _fill(store: ChunkStore, make_point: MakePoint) -> dict[str, str]:
    dense_only_match = make_point("r", "dense.py", dense=AXIS_0, sparse=SparseVector([1], [1.0]))
    sparse_only_match = make_point("r", "sparse.py", dense=AXIS_7, sparse=SparseVector([999], [1.0]))
    doc = make_point("r", "guide.md", dense=AXIS_0, sparse=SparseVector([999], [1.0]), kind="doc", language="markdown")
    others = [make_point("r", f"o{i}.py", dense=_spread(i), sparse=SparseVector([1], [1.0])) for i in range(12)]
    elsewhere = make_point("other", "dense.py", dense=AXIS_0, sparse=SparseVector([999], [1.0]))
    store.upsert([dense_only_match, sparse_only_match, doc, *others, elsewhere])
    return {"dense": dense_only_match.id, "sparse": sparse_only_match.id, "doc": doc.id, "elsewhere": elsewhere.id}


def test_sparse_alone_ranks_by_the_sparse_side_only(store: ChunkStore, make_point: MakePoint) -> None:
    ids = _fill(store, make_point)

    hits = store.search_chunks("r", sparse=SparseVector([999], [1.0]), limit=5)

    assert {hit.id for hit in hits} == {ids["sparse"], ids["doc"]}  # only points holding term 999
    assert ids["elsewhere"] not in {hit.id for hit in hits}


def test_dense_alone_ranks_by_the_dense_side_only(store: ChunkStore, make_point: MakePoint) -> None:
    ids = _fill(store, make_point)

    hits = store.search_chunks("r", dense=AXIS_0, kind="code", limit=3)

    assert hits[0].id == ids["dense"]
    assert all(hit.payload.kind == "code" for hit in hits)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_both_sides_are_fused(store: ChunkStore, make_point: MakePoint) -> None:
    ids = _fill(store, make_point)

    hits = store.search_chunks("r", dense=AXIS_0, sparse=SparseVector([999], [1.0]), kind="code", limit=2)

    assert {hit.id for hit in hits} == {ids["dense"], ids["sparse"]}


def test_kind_doc_returns_docs_only(store: ChunkStore, make_point: MakePoint) -> None:
    ids = _fill(store, make_point)

    hits = store.search_chunks("r", dense=AXIS_0, sparse=SparseVector([999], [1.0]), kind="doc")

    assert [hit.id for hit in hits] == [ids["doc"]]


def test_no_vector_means_no_hits(store: ChunkStore, make_point: MakePoint) -> None:
    _fill(store, make_point)

    assert store.search_chunks("r") == []
    assert store.search_chunks("r", sparse=SparseVector([], [])) == []


def test_find_symbols_exact_and_prefix(store: ChunkStore, make_point: MakePoint) -> None:
    names = ["get_user", "get_users", "getUser", "set_user", None]
    store.upsert([make_point("r", f"m{i}.py", start_line=i + 1, symbol=name) for i, name in enumerate(names)])
    store.upsert([make_point("other", "x.py", symbol="get_user")])

    exact = store.find_symbols("r", "get_user")
    prefixed = store.find_symbols("r", "get_user", prefix=True)

    assert [(p.path, p.symbol) for p in exact] == [("m0.py", "get_user")]
    assert [p.symbol for p in prefixed] == ["get_user", "get_users"]
    assert store.find_symbols("r", "get", prefix=True, limit=10)[-1].symbol == "getUser"
    assert store.find_symbols("r", "nothing") == []
