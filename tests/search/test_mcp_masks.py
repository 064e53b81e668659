"""`sextant mcp` over stdio answers with the planted repository's secrets masked, and sends none away.

The agent reading an MCP answer is most often a hosted model. The planted repository is indexed by
the server itself with a hosted embedder and a hosted reranker, both a local server speaking the
providers' wire formats (OpenAI embeddings, Cohere rerank) that records every request. Then
`review_context` gets a diff and a title holding tokens, and `search_code` a query: no planted value
is in any answer or any request a provider received, and the masked chunks are there, readable.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from ..conftest import GitRepo
from ..support.planted_repository import DIFF_TOKEN, SECRETS, SENT_DIFF, TITLE_TOKEN, build_planted_repository
from ..support.provider_server import ProviderServer
from ..support.wire_formats import cohere_scores, openai_embeddings

pytestmark = [pytest.mark.process, pytest.mark.bus]
DIMENSION = 8


def _vector(text: str) -> list[float]:
    counts = [float(text.lower().count(letter)) for letter in "etaoinsr"]
    return [count + 1.0 for count in counts]


def _answer(request: Any) -> Any:
    if "documents" in request:  # Cohere rerank
        return cohere_scores(request)
    return openai_embeddings([_vector(text) for text in request["input"]], model=request["model"])


async def _call(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def test_answers_and_provider_requests_hold_no_planted_secret(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "orders")
    build_planted_repository(repo)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NATS_", "QDRANT_", "OTEL_", "LLM_", "EMBED"))}
    with ProviderServer(answer=_answer) as providers:
        env |= {
            "SEXTANT_HOME": str(tmp_path / "home"), "INDEX_FILE_RECENCY": "true",
            "EMBEDDINGS_PROVIDER": "openai", "EMBEDDINGS_BASE_URL": f"{providers.url}/v1",
            "EMBEDDINGS_MODEL": "fake-embed", "EMBEDDINGS_DIMENSION": str(DIMENSION),
            "OPENAI_API_KEY": "sk-test-fake-provider-key-0000", "COHERE_API_KEY": "fake-cohere-key",
            "COHERE_BASE_URL": providers.url,
        }  # fmt: skip
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "sextant.cli", "mcp"], env=env, cwd=repo.root
        )
        async with Client(params) as client:
            indexed = await _call(client, "index_repository", {"repo": str(repo.root), "until": "indexed"})
            context = await _call(
                client, "review_context",
                {"diff": SENT_DIFF, "title": f"rotate {TITLE_TOKEN}", "description": f"was {DIFF_TOKEN}"},
            )  # fmt: skip
            found = await _call(client, "search_code", {"query": "database password token settings", "limit": 20})
        requests = [json.dumps(request.body) for request in providers.requests]

    assert indexed["ok"] is True
    answers = json.dumps([context, found])
    assert [secret for secret in SECRETS if secret in answers] == []
    assert [secret for secret in SECRETS if any(secret in body for body in requests)] == []
    kept = "\n".join(item["text"] for item in context["context"] if item["kept"])
    assert "def connect_database" in kept  # the code around the secrets, masks saying what stood there
    assert "<redacted:aws-key>" in kept
    assert found["mode"] == "hybrid"  # the hosted embedder answered for every chunk and the query
    assert any("documents" in body for body in requests), "the hosted reranker was asked"
    assert any("<redacted:" in hit["snippet"] for hit in found["hits"])
