"""One contract every Reranker keeps, run against the local reranker and Cohere's client (local server)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sextant.llm.http_retry import RetryPolicy
from sextant.rerank import CohereReranker, LocalReranker, Reranker

from ..support.provider_server import ProviderServer
from ..support.wire_formats import cohere_scores

QUERY = """Rename parse_config to load_settings

-def parse_config(path: str) -> Settings:
+def load_settings(path: str) -> Settings:
"""
RELEVANT = "Configuration is read once by `parse_config()` in src/config/loader.py: def parse_config(path: str)"
UNRELATED = "# Release process\n\nTag the commit, push the tag, and announce it in the channel."
DOCUMENTS = [UNRELATED, RELEVANT, "Nothing here either."]


@pytest.fixture(params=["local", "cohere"])
def reranker(request: pytest.FixtureRequest) -> Iterator[Reranker]:
    if request.param == "local":
        yield LocalReranker()
        return
    with ProviderServer(answer=cohere_scores) as server:
        yield CohereReranker(
            "co-contract-key",
            base_url=server.url,
            retry=RetryPolicy(max_attempts=2, base_delay=0.01),
        )


async def test_scores_are_index_aligned_and_in_the_unit_interval(reranker: Reranker) -> None:
    result = await reranker.rerank(QUERY, DOCUMENTS)

    assert result.scores is not None
    assert len(result.scores) == len(DOCUMENTS)
    assert all(0.0 <= score <= 1.0 for score in result.scores)
    assert result.warning is None
    assert result.model


async def test_order_is_best_first_and_a_permutation(reranker: Reranker) -> None:
    result = await reranker.rerank(QUERY, DOCUMENTS)

    assert result.scores is not None
    assert sorted(result.order) == list(range(len(DOCUMENTS)))
    ordered = [result.scores[index] for index in result.order]
    assert ordered == sorted(ordered, reverse=True)


async def test_a_document_sharing_the_query_identifiers_ranks_first(reranker: Reranker) -> None:
    result = await reranker.rerank(QUERY, DOCUMENTS)

    assert result.order[0] == DOCUMENTS.index(RELEVANT)
    assert (result.score(1) or 0.0) > (result.score(0) or 0.0)


async def test_a_score_does_not_depend_on_the_other_documents(reranker: Reranker) -> None:
    together = await reranker.rerank(QUERY, DOCUMENTS)
    alone = await reranker.rerank(QUERY, [RELEVANT])

    assert alone.score(0) == pytest.approx(together.score(DOCUMENTS.index(RELEVANT)))


async def test_the_same_question_gets_the_same_answer(reranker: Reranker) -> None:
    assert await reranker.rerank(QUERY, DOCUMENTS) == await reranker.rerank(QUERY, DOCUMENTS)


async def test_no_documents_give_an_empty_result(reranker: Reranker) -> None:
    result = await reranker.rerank(QUERY, [])

    assert result.scores == ()
    assert result.order == ()
    assert result.warning is None
