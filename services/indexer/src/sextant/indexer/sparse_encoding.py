"""Encode a group of parsed files' chunks as sparse (BM25) vectors: the only vectors an index run computes.

Dense vectors are not computed here: the run stores payloads and sparse vectors and announces them, and
the dense phase adds dense vectors to the stored points afterwards (see ``dense_stage``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from sextant.chunkstore import SparseVector
from sextant.indexer.run_plan import FileToIndex
from sextant.indexer.symbol_dates import SymbolDate
from sextant.parsing import Chunk


class SparseDocumentEncoder(Protocol):
    """The sparse side of embedding (``sextant.embedding.SparseEncoder``)."""

    def encode_documents(self, texts: Sequence[str]) -> list[SparseVector]:
        """One sparse vector per text."""
        ...


@dataclass(frozen=True)
class ParsedFile:
    """A file's chunks, ready to encode."""

    file: FileToIndex
    chunks: list[Chunk]
    symbol_dates: list[SymbolDate | None] = field(default_factory=list)
    """When each chunk's own lines last changed (see ``symbol_dates``); empty or None = not computed."""


@dataclass(frozen=True)
class EncodedFile:
    """A file's chunks with their sparse vectors, in chunk order."""

    parsed: ParsedFile
    sparse: list[SparseVector]


async def encode_files(files: Sequence[ParsedFile], sparse: SparseDocumentEncoder) -> list[EncodedFile]:
    """Sparse-encode the chunks of several files in one worker-thread call.

    Args:
        files: Parsed files, each with at least one chunk.
        sparse: The sparse encoder (local and deterministic: a failure is a bug, so it is raised).

    Returns:
        One EncodedFile per input file, in order.
    """
    if not files:
        return []
    texts = [chunk.sparse_text for parsed in files for chunk in parsed.chunks]
    vectors = await asyncio.to_thread(sparse.encode_documents, texts)
    encoded: list[EncodedFile] = []
    start = 0
    for parsed in files:
        end = start + len(parsed.chunks)
        encoded.append(EncodedFile(parsed, vectors[start:end]))
        start = end
    return encoded
