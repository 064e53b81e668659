"""Compute dense vectors for stored chunks, isolating any chunk the provider rejects."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from sextant.chunkstore import DenseUpdate, StoredChunk, dense_text_of
from sextant.embedding import DenseEmbedder, EmbeddingError

logger = logging.getLogger(__name__)

OUTAGE_AFTER_TRANSIENT_FAILURES = 3
"""Consecutive transient failures (each already retried by the embedder) that mean the provider is
down: the pass then stops calling it, and the points left are picked up by a later pass."""


class ProviderHealth:
    """Counts consecutive transient failures across a pass; past the limit the provider is "down"."""

    def __init__(self, limit: int = OUTAGE_AFTER_TRANSIENT_FAILURES) -> None:
        self._limit = limit
        self._streak = 0
        self.outage: str | None = None
        """The reason the provider is considered down, once it is."""

    def succeeded(self) -> None:
        """A call went through."""
        self._streak = 0

    def failed(self, error: EmbeddingError) -> None:
        """A call failed for good (after the embedder's own retries)."""
        if not error.transient:
            return
        self._streak += 1
        if self._streak >= self._limit:
            self.outage = error.reason


@dataclass
class EmbeddedPage:
    """Dense vectors for one page of stored chunks, and what could not be embedded."""

    updates: list[DenseUpdate]
    failed: dict[str, str]
    """Point id -> reason (safe to show); those points keep no dense vector for now."""


async def embed_chunks(chunks: Sequence[StoredChunk], embedder: DenseEmbedder, health: ProviderHealth) -> EmbeddedPage:
    """Embed stored chunks together; on failure, find the failing ones by bisection.

    One chunk the provider rejects (a content or length check) costs its neighbours nothing; once
    the provider is down no further call is made.

    Args:
        chunks: Stored chunks without a dense vector.
        embedder: The dense model (its own bounded retries apply to every call).
        health: Pass-wide provider health.

    Returns:
        The updates to write and the failures.
    """
    if not chunks:
        return EmbeddedPage([], {})
    if health.outage is not None:
        return EmbeddedPage([], dict.fromkeys((chunk.id for chunk in chunks), health.outage))
    try:
        vectors = await embedder.embed([dense_text_of(chunk.payload) for chunk in chunks])
    except EmbeddingError as error:
        health.failed(error)
        if len(chunks) == 1:
            logger.warning("embedding failed for %s: %s", chunks[0].payload.path, error.reason)
            return EmbeddedPage([], {chunks[0].id: error.reason})
        middle = len(chunks) // 2
        first = await embed_chunks(chunks[:middle], embedder, health)
        second = await embed_chunks(chunks[middle:], embedder, health)
        return EmbeddedPage(first.updates + second.updates, first.failed | second.failed)
    health.succeeded()
    updates = [
        DenseUpdate(id=chunk.id, dense=vector, indexed_at=chunk.payload.indexed_at)
        for chunk, vector in zip(chunks, vectors, strict=True)
    ]
    return EmbeddedPage(updates, {})
