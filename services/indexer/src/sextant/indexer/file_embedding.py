"""Embed a group of files' chunks, dense and sparse at once, isolating any file whose embedding fails."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from sextant.chunkstore import SparseVector
from sextant.contracts import FailedFile
from sextant.embedding import DenseEmbedder, EmbeddingError
from sextant.indexer.run_plan import FileToIndex
from sextant.parsing import Chunk

logger = logging.getLogger(__name__)

OUTAGE_AFTER_TRANSIENT_FAILURES = 3
"""Consecutive transient failures (each already retried by the embedder) that mean the provider is
down: the rest of the run's files then fail at once instead of each waiting out its own retries."""


class SparseDocumentEncoder(Protocol):
    """The sparse side of embedding (``sextant.embedding.SparseEncoder``)."""

    def encode_documents(self, texts: Sequence[str]) -> list[SparseVector]:
        """One sparse vector per text."""
        ...


@dataclass(frozen=True)
class ParsedFile:
    """A file's chunks, ready to embed."""

    file: FileToIndex
    chunks: list[Chunk]


@dataclass(frozen=True)
class EmbeddedFile:
    """A file's chunks with both vectors, in chunk order."""

    parsed: ParsedFile
    dense: list[list[float]]
    sparse: list[SparseVector]


class ProviderHealth:
    """Counts consecutive transient failures across a run; past the limit the provider is "down"."""

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


async def embed_files(
    files: Sequence[ParsedFile],
    embedder: DenseEmbedder,
    sparse: SparseDocumentEncoder,
    health: ProviderHealth,
) -> tuple[list[EmbeddedFile], list[FailedFile]]:
    """Embed the chunks of several files together; on failure, find the failing files by bisection.

    Dense and sparse vectors are computed concurrently (the sparse side in a worker thread). If the
    dense call fails, the group is split in halves and each half retried, down to single files, so
    one bad file costs its neighbours nothing; a file that fails alone is reported with the reason.

    Args:
        files: Parsed files, each with at least one chunk.
        embedder: Dense model (its own bounded retries apply to every call).
        sparse: Sparse encoder.
        health: Run-wide provider health; once it reports an outage no further call is made.

    Returns:
        (files embedded, files that failed with their reasons).
    """
    if not files:
        return [], []
    if health.outage is not None:
        return [], [_failed(parsed, health.outage) for parsed in files]
    dense_texts = [chunk.dense_text for parsed in files for chunk in parsed.chunks]
    sparse_texts = [chunk.sparse_text for parsed in files for chunk in parsed.chunks]
    dense_call = embedder.embed(dense_texts)
    sparse_call = asyncio.to_thread(sparse.encode_documents, sparse_texts)
    dense_result, sparse_vectors = await asyncio.gather(dense_call, sparse_call, return_exceptions=True)
    if isinstance(sparse_vectors, BaseException):
        raise sparse_vectors  # local and deterministic: a failure here is a bug, not a provider problem
    if isinstance(dense_result, EmbeddingError):
        health.failed(dense_result)
        return await _bisect(files, embedder, sparse, health, dense_result)
    if isinstance(dense_result, BaseException):
        raise dense_result
    health.succeeded()
    return _split_by_file(files, dense_result, sparse_vectors), []


async def _bisect(
    files: Sequence[ParsedFile],
    embedder: DenseEmbedder,
    sparse: SparseDocumentEncoder,
    health: ProviderHealth,
    error: EmbeddingError,
) -> tuple[list[EmbeddedFile], list[FailedFile]]:
    if len(files) == 1:
        logger.warning("embedding failed for %s: %s", files[0].file.path, error.reason)
        return [], [_failed(files[0], error.reason)]
    middle = len(files) // 2
    done: list[EmbeddedFile] = []
    failed: list[FailedFile] = []
    for half in (files[:middle], files[middle:]):
        half_done, half_failed = await embed_files(half, embedder, sparse, health)
        done.extend(half_done)
        failed.extend(half_failed)
    return done, failed


def _split_by_file(
    files: Sequence[ParsedFile], dense: list[list[float]], sparse: list[SparseVector]
) -> list[EmbeddedFile]:
    embedded: list[EmbeddedFile] = []
    start = 0
    for parsed in files:
        end = start + len(parsed.chunks)
        embedded.append(EmbeddedFile(parsed, dense[start:end], sparse[start:end]))
        start = end
    return embedded


def _failed(parsed: ParsedFile, reason: str) -> FailedFile:
    return FailedFile(path=parsed.file.path, reason=f"embedding failed: {reason} (old points kept)")
