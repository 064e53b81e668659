"""Choosing the reranker from environment variables."""

from __future__ import annotations

from typing import Any

import pytest

from sextant.rerank import CohereReranker, LocalReranker, reranker_from_env

KEY = "co-env-secret-0123456789"


def test_no_key_means_the_local_reranker() -> None:
    assert isinstance(reranker_from_env({}), LocalReranker)
    assert isinstance(reranker_from_env({"COHERE_API_KEY": "   "}), LocalReranker)


def test_key_selects_cohere_with_overrides() -> None:
    ranker = reranker_from_env(
        {
            "COHERE_API_KEY": KEY,
            "COHERE_RERANK_MODEL": "rerank-english-v3.0",
            "COHERE_BASE_URL": "https://cohere.gateway.example",
            "RERANK_TIMEOUT_SECONDS": "3",
        }
    )
    assert isinstance(ranker, CohereReranker)
    assert (ranker.name, ranker.model) == ("cohere", "rerank-english-v3.0")
    assert KEY not in repr(ranker)


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"RERANK_TIMEOUT_SECONDS": "fast"}, "must be a number"),
        ({"RERANK_TIMEOUT_SECONDS": "-1"}, "must be positive"),
        ({"COHERE_BASE_URL": "cohere.com"}, "COHERE_BASE_URL"),
    ],
)
def test_bad_settings_fail_at_startup(env: dict[str, str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        reranker_from_env({"COHERE_API_KEY": KEY, **env})


async def test_env_built_cohere_calls_the_configured_endpoint(provider_server: Any) -> None:
    provider_server.script({"body": {"results": [{"index": 0, "relevance_score": 0.7}]}})
    ranker = reranker_from_env({"COHERE_API_KEY": KEY, "COHERE_BASE_URL": provider_server.url})

    result = await ranker.rerank("q", ["doc"])

    assert result.scores == (0.7,)
    assert provider_server.requests[0].headers["authorization"] == f"Bearer {KEY}"
