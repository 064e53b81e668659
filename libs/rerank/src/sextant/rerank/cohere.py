"""Cohere's hosted rerank (POST /v2/rerank) as a Reranker that degrades to a warning, never an error."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import httpx

from sextant.llm.endpoint import ProviderEndpoint
from sextant.llm.http_retry import ProviderCallError, RetryPolicy
from sextant.rerank.result import RerankResult

logger = logging.getLogger(__name__)

DEFAULT_COHERE_BASE_URL = "https://api.cohere.com"
DEFAULT_COHERE_RERANK_MODEL = "rerank-v3.5"
DEFAULT_RERANK_TIMEOUT_SECONDS = 10.0
# Cohere accepts at most 1,000 documents per request; relevance scores are absolute, so batches
# of one query compare fairly.
MAX_DOCUMENTS_PER_REQUEST = 1000
# A review waits on this call: retry briefly, and never sit out a long retry-after.
DEFAULT_RERANK_RETRY = RetryPolicy(max_attempts=3, base_delay=0.25, max_delay=2.0, max_retry_after=5.0)


class _MalformedAnswerError(Exception):
    """The answer was 2xx but not the documented shape."""


class CohereReranker:
    """Calls Cohere's rerank API with a Bearer key; on failure keeps the original order and warns."""

    def __init__(
        self,
        api_key: str,
        model: str = DEFAULT_COHERE_RERANK_MODEL,
        base_url: str = DEFAULT_COHERE_BASE_URL,
        timeout: float = DEFAULT_RERANK_TIMEOUT_SECONDS,
        *,
        retry: RetryPolicy | None = None,
        max_tokens_per_doc: int | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        """Configure the client; nothing is sent until `rerank`.

        Args:
            api_key: Cohere API key (sent only in the Authorization header).
            model: Rerank model name.
            base_url: API root; `/v2/rerank` is appended.
            timeout: Deadline for one request, in seconds.
            retry: Retry bounds; short ones by default (a review is waiting).
            max_tokens_per_doc: Truncation length Cohere applies per document; its default when None.
            http_client: A caller-owned client to reuse connections; each call opens its own when None.
        """
        if not api_key:
            raise ValueError("api_key is required")
        self.name = "cohere"
        self.model = model
        self._api_key = api_key
        self._endpoint = ProviderEndpoint(
            provider="cohere",
            base_url=base_url,
            timeout=timeout,
            retry=retry or DEFAULT_RERANK_RETRY,
            secrets=(api_key,),
            http_client=http_client,
        )
        self._max_tokens_per_doc = max_tokens_per_doc

    def __repr__(self) -> str:
        return f"CohereReranker(model={self.model!r}, base_url={self._endpoint.base_url!r})"

    async def rerank(self, query: str, documents: Sequence[str]) -> RerankResult:
        """Score the documents with Cohere; on any provider failure, keep their order and warn.

        Args:
            query: The retrieval query.
            documents: Candidate texts.

        Returns:
            Index-aligned scores, or `RerankResult.unscored(...)` with a warning when Cohere could not
            answer (timeouts, 429s and 5xx after bounded retries, 4xx, malformed answers).
        """
        if not documents:
            return RerankResult.from_scores((), self.model)
        scores: list[float] = []
        try:
            for start in range(0, len(documents), MAX_DOCUMENTS_PER_REQUEST):
                batch = documents[start : start + MAX_DOCUMENTS_PER_REQUEST]
                scores.extend(await self._score_batch(query, batch))
        except (ProviderCallError, _MalformedAnswerError) as exc:
            reason = exc.reason if isinstance(exc, ProviderCallError) else str(exc)
            warning = f"Cohere rerank failed ({reason}); original order kept"
            logger.warning("%s", warning)
            return RerankResult.unscored(len(documents), self.model, warning)
        return RerankResult.from_scores(scores, self.model)

    async def _score_batch(self, query: str, batch: Sequence[str]) -> list[float]:
        body: dict[str, Any] = {
            "model": self.model,
            "query": query,
            "documents": list(batch),
            "top_n": len(batch),
        }
        if self._max_tokens_per_doc is not None:
            body["max_tokens_per_doc"] = self._max_tokens_per_doc
        answer = await self._endpoint.post("/v2/rerank", body, {"authorization": f"Bearer {self._api_key}"})
        return _aligned_scores(answer, len(batch))


def _aligned_scores(answer: Any, count: int) -> list[float]:
    """Turn Cohere's best-first `results` into scores in document order."""
    results = answer.get("results") if isinstance(answer, dict) else None
    if not isinstance(results, list):
        raise _MalformedAnswerError("malformed response: no results list")
    # top_n equals the batch size, so every document should come back; one that does not is
    # treated as irrelevant rather than failing the whole rerank.
    scores = [0.0] * count
    for item in results:
        index = item.get("index") if isinstance(item, dict) else None
        score = item.get("relevance_score") if isinstance(item, dict) else None
        if not isinstance(index, int) or not 0 <= index < count or not isinstance(score, int | float):
            raise _MalformedAnswerError("malformed response: bad result entry")
        scores[index] = float(score)
    return scores
