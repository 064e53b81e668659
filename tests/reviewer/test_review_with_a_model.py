"""The review with a language model: an Anthropic-format server answers with findings as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sextant.chunkstore import ChunkPayload, ChunkPoint, point_id
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import RepoRef
from sextant.embedding import LocalMiniLM, SparseEncoder
from sextant.gitsource.mirror import RepoMirror
from sextant.llm import AnthropicModel, RetryPolicy
from sextant.rerank import LocalReranker
from sextant.reviewer.config import ReviewerSettings
from sextant.reviewer.deps import ReviewerDeps
from sextant.reviewer.handlers import on_review_requested

from ..support.diffs import one_line_change
from ..support.events import review_requested
from ..support.payloads import chunk_payload
from ..support.provider_server import ProviderServer
from ..support.wire_formats import anthropic_message

REPO = RepoRef.for_url("https://example.com/acme/shop.git")
DIFF = one_line_change(
    "shop/orders.py", "def place_order(item):", "def place_order(item, quantity):", "    return item"
)
SECRET = "sk-ant-test-key-0123456789"


def payload(path: str, text: str, date: str) -> ChunkPayload:
    kind = "doc" if path.endswith(".md") else "code"
    return chunk_payload(REPO.repo_key, path, text, blob_sha="b", kind=kind, end_line=3, last_modified_at=date)


@pytest.mark.model
async def test_model_findings_and_doc_drift_in_one_review(provider_server: ProviderServer, tmp_path: Path) -> None:
    findings = [{"path": "shop/orders.py", "line": 1, "severity": "error", "message": "callers pass one argument"}]
    reply = anthropic_message(
        "Findings:\n" + json.dumps(findings), model="claude-test", input_tokens=1200, output_tokens=80
    )
    provider_server.script({"body": reply})
    model = LocalMiniLM()
    sparse = SparseEncoder()
    store = EdgeChunkStore(tmp_path / "qdrant", "review_test", model.dimension)
    payloads = [
        payload("shop/orders.py", "def place_order(item):\n    return item\n", "2026-06-01"),
        payload("docs/orders.md", "# Orders\n\nCall `place_order()` with the item.\n", "2024-01-01"),
    ]
    vectors = await model.embed([p.text for p in payloads])
    store.upsert(
        [
            ChunkPoint(id=point_id(p.repo_key, p.path, p.symbol, 1, 0), dense=v, sparse=s, payload=p)
            for p, v, s in zip(payloads, vectors, sparse.encode_documents([p.text for p in payloads]), strict=True)
        ]
    )
    deps = ReviewerDeps(
        settings=ReviewerSettings(), store=store, embedder=model, sparse=sparse, reranker=LocalReranker(),
        model=AnthropicModel(api_key=SECRET, model="claude-test", base_url=provider_server.url,
                             retry=RetryPolicy(max_attempts=1)),
        mirror=RepoMirror(tmp_path / "mirrors"),
    )  # fmt: skip
    request = review_requested(REPO, title="Add quantity", diff=DIFF)
    [review] = await on_review_requested(request, deps)
    store.close()

    assert review.model == "claude-test"
    assert (review.usage.input_tokens, review.usage.output_tokens) == (1200, 80)
    model_findings = [f for f in review.findings if f.kind == "review"]
    assert [(f.path, f.line, f.severity) for f in model_findings] == [("shop/orders.py", 1, "error")]
    assert [f.doc for f in review.findings if f.kind == "doc_drift"] == ["docs/orders.md"]
    [sent] = provider_server.requests
    prompt = sent.body["messages"][0]["content"]
    assert "Where documentation and code conflict, the code is authoritative." in prompt
    assert "// shop/orders.py:L1-L3 (last modified 2026-06-01)" in prompt
    assert sent.headers["x-api-key"] == SECRET
    assert SECRET not in review.prompt
    assert SECRET not in review.markdown
