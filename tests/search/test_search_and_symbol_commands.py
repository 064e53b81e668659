"""`sextant search` and `sextant symbol` on a real indexed repository (real model, embedded Qdrant)."""

from __future__ import annotations

import json
import uuid

import msgspec
import pytest

from sextant.chunkstore import ChunkPayload, ChunkPoint
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.embedding import SparseEncoder

from .conftest import IndexedRepo

pytestmark = pytest.mark.model


def test_natural_language_search_finds_the_code_and_frames_the_old_doc(indexed: IndexedRepo) -> None:
    out = indexed.run("search", "where is the password compared to the stored hash", "--json")
    outcome = json.loads(out.stdout)

    assert outcome["mode"] == "hybrid"
    top = outcome["hits"][0]
    assert (top["path"], top["symbol"], top["kind"]) == ("src/auth.py", "check_password", "code")
    assert top["last_modified_at"].startswith("2026-06-01")
    assert top["age"].endswith("ago")
    docs = [hit for hit in outcome["hits"] if hit["kind"] == "doc"]
    assert docs, "the design doc mentions check_password, so it is among the hits"
    assert docs[0]["stale"] is True
    assert "(documentation — verify against code)" in docs[0]["trust_note"]
    assert "27 months older than the retrieved code" in docs[0]["trust_note"]


def test_text_output_shows_location_symbol_kind_age_and_snippet(indexed: IndexedRepo) -> None:
    out = indexed.run("search", "render_invoice", "--limit", "3").stdout

    first_hit = out.splitlines()[1]
    assert out.startswith("hybrid search (dense + sparse, RRF) over 1 repository")
    assert first_hit.startswith(" 1. billing/render.py:L1-L3  render_invoice (function)  code  ")
    assert "ago" in first_hit
    assert "def render_invoice(total: float) -> str:" in out


def test_filters_by_kind_and_path(indexed: IndexedRepo) -> None:
    docs = json.loads(indexed.run("search", "sign in", "--kind", "doc", "--json").stdout)["hits"]
    billing = json.loads(indexed.run("search", "password", "--path", "billing/*", "--json").stdout)["hits"]

    assert {hit["path"] for hit in docs} == {"docs/design.md"}
    assert {hit["path"] for hit in billing} <= {"billing/render.py"}
    assert billing


def test_searches_named_repositories_from_anywhere(indexed: IndexedRepo) -> None:
    elsewhere = indexed.repo.root.parent
    out = indexed.run("search", "invoice", str(indexed.repo.root), str(indexed.repo.root), cwd=elsewhere).stdout

    assert "over 2 repositories" in out
    assert f"{indexed.repo_key}/billing/render.py:L1-L3" in out


def test_symbol_definitions_exact_and_prefix_and_usages(indexed: IndexedRepo) -> None:
    report = json.loads(indexed.run("symbol", "login_user", "--usages", "--json").stdout)
    prefix = json.loads(indexed.run("symbol", "login", "--json").stdout)

    assert [(d["path"], d["start_line"]) for d in report["definitions"]] == [("src/auth.py", 4)]
    assert report["definitions"][0]["snippet"].startswith("def login_user(")
    usages = {(u["path"], u["line"]) for u in report["usages"]}
    assert ("src/app.py", 6) in usages
    assert ("src/app.py", 1) in usages
    assert ("docs/design.md", 3) in usages
    assert ("src/auth.py", 4) not in usages, "its own declaration is not a usage"
    design = next(u for u in report["usages"] if u["path"] == "docs/design.md")
    assert design["stale"] is True
    assert prefix["definitions"] == []
    assert sorted(m["symbol"] for m in prefix["prefix_matches"]) == ["login_attempts_left", "login_user"]


def test_unknown_symbol_exits_non_zero(indexed: IndexedRepo) -> None:
    result = indexed.run("symbol", "no_such_thing", check=False)

    assert result.returncode == 1
    assert "definitions of no_such_thing: 0" in result.stdout


def test_search_says_it_is_sparse_only_while_dense_vectors_are_incomplete(indexed: IndexedRepo) -> None:
    # A point as the indexer stores it before its dense pass: payload and sparse vector only.
    text = "def refund_order(order_id: str) -> None:\n    pass\n"
    payload = msgspec.convert(
        {"repo_key": indexed.repo_key, "path": "billing/refund.py", "blob_sha": "b" * 40, "kind": "code",
         "language": "python", "symbol": "refund_order", "symbol_type": "function", "start_line": 1, "end_line": 2,
         "text": text, "indexed_at": "2026-06-02T00:00:00Z", "last_modified_at": "2026-06-02T00:00:00Z"},
        ChunkPayload,
    )  # fmt: skip
    [sparse] = SparseEncoder().encode_documents([text])
    store = EdgeChunkStore(indexed.home / "qdrant", indexed.collection, 384)
    try:
        store.upsert([ChunkPoint(id=str(uuid.uuid4()), dense=None, sparse=sparse, payload=payload)])
    finally:
        store.close()

    outcome = json.loads(indexed.run("search", "refund order", "--json").stdout)
    text_out = indexed.run("search", "refund order").stdout

    assert outcome["mode"] == "sparse"
    assert outcome["hits"][0]["path"] == "billing/refund.py"
    assert any("dense vectors are still incomplete" in note for note in outcome["notes"])
    assert text_out.startswith("sparse-only search (BM25)")
