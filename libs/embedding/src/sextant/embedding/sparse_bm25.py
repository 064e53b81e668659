"""BM25 sparse vectors over code-aware tokens; Qdrant supplies the IDF half (Modifier.IDF)."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from sextant.chunkstore.payload import SparseVector
from sextant.embedding.code_identifiers import split_code_identifiers

BM25_K1 = 1.2
BM25_B = 0.75
BM25_AVERAGE_DOC_TOKENS = 256.0
"""Fixed average document length: chunks are budgeted to similar sizes, and a fixed value keeps a
chunk's vector independent of whatever else is in the collection (no re-encoding as it grows)."""


@lru_cache(maxsize=1 << 16)
def term_index(term: str) -> int:
    """Stable 32-bit index of a term (blake2b, so it is the same in every process and version).

    Args:
        term: A token.

    Returns:
        An unsigned 32-bit integer (Qdrant's sparse index type).
    """
    return int.from_bytes(hashlib.blake2b(term.encode("utf-8"), digest_size=4).digest(), "little")


class SparseEncoder:
    """Turns texts into BM25 term-frequency vectors (documents) or unit term vectors (queries).

    The document side is BM25's saturated term frequency,
    tf * (k1 + 1) / (tf + k1 * (1 - b + b * dl / avgdl)); the collection's sparse vector is
    configured with Qdrant's IDF modifier, which multiplies in each term's inverse document
    frequency at query time, so a query only has to name its terms.
    """

    def __init__(
        self, *, k1: float = BM25_K1, b: float = BM25_B, average_doc_tokens: float = BM25_AVERAGE_DOC_TOKENS
    ) -> None:
        """Configure BM25.

        Args:
            k1: Term-frequency saturation.
            b: Document-length normalisation strength (0 none, 1 full).
            average_doc_tokens: The fixed average document length in tokens.
        """
        if k1 <= 0 or not 0 <= b <= 1 or average_doc_tokens <= 0:
            raise ValueError("BM25 needs k1 > 0, 0 <= b <= 1 and a positive average length")
        self._k1 = k1
        self._b = b
        self._average = average_doc_tokens

    def encode_documents(self, texts: Sequence[str]) -> list[SparseVector]:
        """Encode documents (chunks to store).

        Args:
            texts: Sparse texts (code and metadata words).

        Returns:
            One vector per text; indices unique and ascending, weights positive.
        """
        return [self._encode_document(text) for text in texts]

    def encode_query(self, text: str) -> SparseVector:
        """Encode a search query: weight 1.0 per distinct term (IDF comes from Qdrant).

        Args:
            text: The query.

        Returns:
            Its sparse vector; indices unique and ascending.
        """
        indices = sorted({term_index(term) for term in split_code_identifiers(text)})
        return SparseVector(indices=indices, values=[1.0] * len(indices))

    def _encode_document(self, text: str) -> SparseVector:
        tokens = split_code_identifiers(text)
        length_factor = self._k1 * (1 - self._b + self._b * len(tokens) / self._average)
        saturation = self._k1 + 1
        # Weights summed per index (two terms may hash alike), in the terms' order of appearance.
        merged: dict[int, float] = {}
        for term, count in Counter(tokens).items():
            index = term_index(term)
            merged[index] = merged.get(index, 0.0) + count * saturation / (count + length_factor)
        indices = sorted(merged)
        return SparseVector(indices=indices, values=[merged[index] for index in indices])
