"""What every dense embedder keeps alike: its text budget, its batch size, its call count, batch fan-out."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence

from sextant.embedding.batch_order import length_sorted_batches

EmbedBatch = Callable[[list[str]], Awaitable[list[list[float]]]]
"""Embeds one batch of texts, a vector per text in the same order."""


class BatchedEmbedder:
    """Base of the dense embedders: splits `embed` calls into length-sorted batches of `batch_size`."""

    def __init__(self, *, dimension: int, max_chars: int, batch_size: int) -> None:
        """Check and keep the vector size and the budget.

        Args:
            dimension: Vector length the model returns.
            max_chars: Character budget for one embedding text.
            batch_size: Texts per model call.
        """
        if dimension < 1 or batch_size < 1 or max_chars < 1:
            raise ValueError("dimension, batch_size and max_chars must be positive")
        self._dimension = dimension
        self._max_chars = max_chars
        self._batch_size = batch_size
        self._calls = 0

    @property
    def dimension(self) -> int:
        """Vector length."""
        return self._dimension

    @property
    def max_chars(self) -> int:
        """Character budget for one embedding text."""
        return self._max_chars

    @property
    def batch_size(self) -> int:
        """Texts per model call (one HTTP request, or one local forward pass)."""
        return self._batch_size

    @property
    def calls(self) -> int:
        """Model calls that returned vectors (retries not counted)."""
        return self._calls

    async def _embed_in_batches(
        self, texts: Sequence[str], embed_batch: EmbedBatch, concurrency: int = 1
    ) -> list[list[float]]:
        """Embed every text, at most `concurrency` batches at once, each vector back at its text's position.

        The first failure is raised as itself (the other batches are cancelled); no partial result is returned.
        """
        vectors: list[list[float]] = [[] for _ in texts]
        gate = asyncio.Semaphore(concurrency)

        async def run(batch: list[int]) -> None:
            async with gate:
                embedded = await embed_batch([texts[position] for position in batch])
            for position, vector in zip(batch, embedded, strict=True):
                vectors[position] = vector

        try:
            async with asyncio.TaskGroup() as group:
                for batch in length_sorted_batches(texts, self._batch_size):
                    group.create_task(run(batch))
        except* Exception as failures:
            raise failures.exceptions[0] from None
        return vectors
