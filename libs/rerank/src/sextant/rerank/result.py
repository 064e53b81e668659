"""The reranker port and what a rerank returns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class RerankResult:
    """Relevance of each document to the query, index-aligned with the documents given."""

    scores: tuple[float, ...] | None
    """One score in [0, 1] per document, in the order given; None when the reranker failed and
    no score is known (callers then keep the original order and treat every score as unknown)."""
    order: tuple[int, ...]
    """Document indices best first (ties keep the original order); the original order on failure."""
    model: str
    """The model that scored, e.g. "rerank-v3.5" or "local-term-overlap-v1"."""
    warning: str | None = None
    """Why the scores are missing or degraded, safe to show and log; None when all went well."""

    @classmethod
    def from_scores(cls, scores: Sequence[float], model: str, warning: str | None = None) -> RerankResult:
        """Build a result from index-aligned scores, ordering indices best first.

        Args:
            scores: One score per document, in document order (clamped into [0, 1]).
            model: Model name to record.
            warning: Optional warning to carry.

        Returns:
            The result with `order` sorted by descending score, stable for ties.
        """
        clamped = tuple(min(1.0, max(0.0, float(s))) for s in scores)
        order = tuple(sorted(range(len(clamped)), key=lambda i: -clamped[i]))
        return cls(scores=clamped, order=order, model=model, warning=warning)

    @classmethod
    def unscored(cls, document_count: int, model: str, warning: str) -> RerankResult:
        """The result of a failed rerank: original order, no scores, and why.

        Args:
            document_count: How many documents were given.
            model: Model that was asked.
            warning: What went wrong (already safe to log).

        Returns:
            A result whose `scores` is None and whose `order` is 0..n-1.
        """
        return cls(scores=None, order=tuple(range(document_count)), model=model, warning=warning)

    def score(self, index: int) -> float | None:
        """The score of document `index`, or None when no scores are known.

        Args:
            index: Position of the document in the list that was reranked.

        Returns:
            Its score in [0, 1], or None.
        """
        return None if self.scores is None else self.scores[index]


class Reranker(Protocol):
    """Scores documents by relevance to a query. Never raises for provider trouble: it warns."""

    name: str
    """"cohere" or "local"."""

    async def rerank(self, query: str, documents: Sequence[str]) -> RerankResult:
        """Score every document against the query.

        Args:
            query: What the documents should be relevant to (e.g. a diff and a PR title).
            documents: Candidate texts.

        Returns:
            Index-aligned scores (or none, with a warning, when a hosted reranker failed).
        """
        ...
