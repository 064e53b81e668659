"""The dense embedder port: what the indexer and the reviewer need from any embedding model."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class DenseEmbedder(Protocol):
    """A dense text embedding model, local or hosted.

    Implementations embed in batches of `batch_size`, never reorder results, and raise
    `sextant.embedding.errors.EmbeddingError` (with `transient`) on failure.
    """

    @property
    def model_id(self) -> str:
        """Stable model name; it goes into the collection name, so vectors never mix models."""
        ...

    @property
    def dimension(self) -> int:
        """Length of every vector this model returns."""
        ...

    @property
    def max_chars(self) -> int:
        """Character budget for one embedding text, sized to the model's context window."""
        ...

    @property
    def batch_size(self) -> int:
        """How many texts one model call carries."""
        ...

    @property
    def calls(self) -> int:
        """Model calls made so far (one per batch that succeeded); the indexer reports the delta."""
        ...

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed documents (chunks to be stored).

        Args:
            texts: The embedding texts, each within `max_chars`.

        Returns:
            One vector per text, in the order given.
        """
        ...

    async def embed_query(self, text: str) -> list[float]:
        """Embed a search query (some providers encode queries differently from documents).

        Args:
            text: The query text.

        Returns:
            The query vector.
        """
        ...
