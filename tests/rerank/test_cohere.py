"""Cohere rerank against a local server speaking the v2 wire format; failures degrade to a warning."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from sextant.llm import RetryPolicy
from sextant.rerank import CohereReranker, Reranker, RerankResult

KEY = "co-test-key-0123456789-secret"
FAST = RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.05, max_retry_after=1.0)
DOCS = ["def parse_config(path): ...", "# Design\nOld prose.", "README: install with pip"]


def cohere_answer(*pairs: tuple[int, float]) -> dict[str, Any]:
    return {
        "id": "0d6f5b1e",
        "results": [{"index": i, "relevance_score": s} for i, s in pairs],
        "meta": {"api_version": {"version": "2"}, "billed_units": {"search_units": 1}},
    }


def reranker(server: Any, **kwargs: Any) -> CohereReranker:
    options: dict[str, Any] = {"timeout": 5.0, "retry": FAST}
    options.update(kwargs)
    return CohereReranker(KEY, base_url=server.url, **options)


async def test_success_sends_v2_body_and_aligns_scores_to_documents(provider_server: Any) -> None:
    provider_server.script({"body": cohere_answer((2, 0.91), (0, 0.62), (1, 0.03))})
    ranker: Reranker = reranker(provider_server)

    result = await ranker.rerank("rename parse_config", DOCS)

    assert result == RerankResult(scores=(0.62, 0.03, 0.91), order=(2, 0, 1), model="rerank-v3.5")
    assert result.score(0) == 0.62
    (request,) = provider_server.requests
    assert request.path == "/v2/rerank"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.body == {
        "model": "rerank-v3.5",
        "query": "rename parse_config",
        "documents": DOCS,
        "top_n": 3,
    }


async def test_429_then_success_is_retried(provider_server: Any) -> None:
    provider_server.script(
        {"status": 429, "body": {"message": "rate limited"}, "headers": {"retry-after": "0.1"}},
        {"body": cohere_answer((0, 0.5), (1, 0.4), (2, 0.3))},
    )

    result = await reranker(provider_server).rerank("q", DOCS)

    assert result.scores == (0.5, 0.4, 0.3)
    assert result.warning is None
    assert len(provider_server.requests) == 2


async def test_timeout_keeps_original_order_with_a_warning(provider_server: Any) -> None:
    provider_server.script({"body": cohere_answer((0, 0.9)), "delay": 10.0})
    ranker = reranker(provider_server, timeout=0.2, retry=RetryPolicy(max_attempts=2, base_delay=0.01))

    result = await ranker.rerank("q", DOCS)

    assert result.scores is None
    assert result.order == (0, 1, 2)
    assert result.score(1) is None
    assert result.warning is not None
    assert "timed out" in result.warning
    assert "original order kept" in result.warning
    # At most the policy's two attempts; on a loaded machine an attempt can time out before the
    # server has even read it, so fewer may arrive (none, when both do).
    assert len(provider_server.requests) <= 2


@pytest.mark.parametrize(
    "reply",
    [
        {"status": 401, "body": {"message": f"invalid api token {KEY}"}},
        {"status": 503, "body": {"message": "unavailable"}},
        {"body": {"results": [{"index": 7, "relevance_score": 0.2}]}},
        {"raw": b"not json"},
    ],
)
async def test_any_failure_is_a_warning_not_an_exception(provider_server: Any, reply: dict[str, Any]) -> None:
    provider_server.script(reply)

    result = await reranker(provider_server).rerank("q", DOCS)

    assert result.scores is None
    assert result.order == (0, 1, 2)
    assert result.warning
    assert KEY not in result.warning
    assert KEY not in repr(reranker(provider_server))


async def test_401_is_not_retried(provider_server: Any) -> None:
    provider_server.script({"status": 401, "body": {"message": "invalid api token"}})

    result = await reranker(provider_server).rerank("q", DOCS)

    assert "HTTP 401" in (result.warning or "")
    assert len(provider_server.requests) == 1


async def test_no_documents_sends_nothing(provider_server: Any) -> None:
    result = await reranker(provider_server).rerank("q", [])

    assert result == RerankResult(scores=(), order=(), model="rerank-v3.5")
    assert provider_server.requests == []


async def test_scores_are_clamped_and_missing_results_count_as_irrelevant(provider_server: Any) -> None:
    provider_server.script({"body": cohere_answer((1, 1.0000001))})

    result = await reranker(provider_server, max_tokens_per_doc=512).rerank("q", DOCS)

    assert result.scores == (0.0, 1.0, 0.0)
    assert result.order == (1, 0, 2)
    assert provider_server.requests[0].body["max_tokens_per_doc"] == 512


async def test_cancellation_propagates(provider_server: Any) -> None:
    provider_server.script({"body": cohere_answer((0, 0.9)), "delay": 10.0})
    task = asyncio.create_task(reranker(provider_server).rerank("q", DOCS))
    await provider_server.requested()  # in flight: the provider holds it for 10 s

    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
