"""The one test implementation of the DenseEmbedder port: deterministic, instant, no model to load.

Tests about bookkeeping (what is embedded, written, counted) and tests that never search by meaning
use it; tests about meaning use the real local model.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence

Vectoriser = Callable[[str, int], list[float]]


def token_hash_vector(text: str, dimension: int) -> list[float]:
    """Token feature hashing, normalised: texts sharing words point the same way."""
    vector = [0.0] * dimension
    for token in text.split():
        digest = hashlib.blake2b(token.encode(), digest_size=4).digest()
        vector[int.from_bytes(digest, "little") % dimension] += 1.0
    norm = math.sqrt(sum(value * value for value in vector)) or 1.0
    return [value / norm if norm else 1.0 for value in vector] if any(vector) else [1.0] * dimension


def letter_vector(text: str, dimension: int = 26) -> list[float]:
    """Letter frequencies (one per letter a-z, smoothed), normalised."""
    counts = [1.0 + text.lower().count(chr(ord("a") + i)) for i in range(dimension)]
    total = sum(value * value for value in counts) ** 0.5
    return [value / total for value in counts]


class FakeEmbedder:
    """A DenseEmbedder that records what it embeds; ``calls`` counts provider-sized batches."""

    def __init__(
        self,
        *,
        dimension: int = 32,
        max_chars: int = 400,
        batch_size: int = 8,
        model_id: str = "test/token-hashing",
        vectoriser: Vectoriser = token_hash_vector,
    ) -> None:
        # Plain attributes: the port only reads them.
        self.dimension = dimension
        self.max_chars = max_chars
        self.batch_size = batch_size
        self.model_id = model_id
        self.calls = 0
        """Provider-sized batches embedded so far."""
        self.texts: list[str] = []
        """Every text embedded, in order."""
        self._vectoriser = vectoriser

    @classmethod
    def letters(cls) -> FakeEmbedder:
        """The 26-dimension letter-frequency embedder (a vector a reader can work out by hand)."""
        return cls(dimension=26, max_chars=1200, batch_size=16, model_id="test/letters", vectoriser=letter_vector)

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        for start in range(0, len(texts), self.batch_size):
            self.calls += 1
            self.texts.extend(texts[start : start + self.batch_size])
        return [self.vector(text) for text in texts]

    async def embed_query(self, text: str) -> list[float]:
        return self.vector(text)

    def vector(self, text: str) -> list[float]:
        """The vector ``embed`` returns for a text."""
        return self._vectoriser(text, self.dimension)
