"""A deterministic, offline reranker: shared identifiers and words, squashed into [0, 1]."""

from __future__ import annotations

import math
from collections.abc import Sequence

from sextant.rerank.code_terms import CodeTerms, code_terms
from sextant.rerank.result import RerankResult

LOCAL_RERANK_MODEL = "local-term-overlap-v1"

IDENTIFIER_EVIDENCE = 1.0
"""Evidence from one distinctive query identifier that the document names exactly."""
PARTIAL_IDENTIFIER_EVIDENCE = 0.3
"""Evidence from a distinctive identifier whose words (two or more) all appear in the document."""
WORD_EVIDENCE = 0.08
"""Evidence per shared content word at BM25 saturation 1 (one mention in a typical chunk)."""
VOCABULARY_EVIDENCE_CAP = 0.8
"""Ceiling on evidence from words and partial matches: 1 - e^-0.8 = 0.55, below the 0.6 line."""

_BM25_K1 = 1.2
_BM25_B = 0.75
_TYPICAL_CHUNK_WORDS = 150.0


def _saturated(count: int, length: int) -> float:
    # BM25's term-frequency saturation with a fixed typical chunk length instead of a corpus mean,
    # so a document's score never depends on which other documents came with it.
    norm = 1 - _BM25_B + _BM25_B * length / _TYPICAL_CHUNK_WORDS
    return count * (_BM25_K1 + 1) / (count + _BM25_K1 * norm)


def _evidence(query: CodeTerms, document: CodeTerms) -> float:
    exact = query.distinctive & document.identifiers
    partial = sum(
        PARTIAL_IDENTIFIER_EVIDENCE
        for key in query.distinctive - exact
        if len(query.distinctive_words[key]) >= 2
        and all(word in document.words for word in query.distinctive_words[key])
    )
    vocabulary = partial + sum(
        WORD_EVIDENCE * _saturated(document.words[word], document.length)
        for word in query.words
        if word in document.words
    )
    return IDENTIFIER_EVIDENCE * len(exact) + min(vocabulary, VOCABULARY_EVIDENCE_CAP)


def local_relevance(query: CodeTerms, document: str) -> float:
    """Score one document against prepared query terms.

    Args:
        query: `code_terms(query_text)`.
        document: The candidate text.

    Returns:
        1 - exp(-evidence), in [0, 1).
    """
    return 1 - math.exp(-_evidence(query, code_terms(document)))


class LocalReranker:
    """Offline rerank by code-aware term overlap, calibrated against the 0.6 keep line.

    The review keeps a stale doc when Cohere scores it at least 0.6: a strong, specific match. Here a
    score is 1 - exp(-evidence), where evidence adds up:

    - 1.0 for each *distinctive* query identifier (compound names such as `parse_config`,
      `SessionStore`, `STALE_DOC_GAP`; snake, camel and Pascal spellings match each other) that the
      document names exactly;
    - 0.08 x BM25 term-frequency saturation for each shared content word (subwords of identifiers
      included; stop words and ubiquitous code words excluded), plus 0.3 for a distinctive
      identifier whose words all appear in prose, the two together capped at 0.8.

    So: one shared distinctive identifier scores 0.63, two score 0.86, three 0.95; shared
    vocabulary alone saturates at 1 - e^-0.8 = 0.55. A score of at least 0.6 therefore means
    exactly "the document names at least one specific identifier from the query" (the doc talks
    about the code being changed), the closest offline reading of Cohere's "strong match"; anything
    weaker stays under the line and a stale doc with it is demoted. Scores are per document,
    deterministic and independent of the other documents in the call.
    """

    def __init__(self) -> None:
        self.name = "local"
        self.model = LOCAL_RERANK_MODEL

    def __repr__(self) -> str:
        return "LocalReranker()"

    async def rerank(self, query: str, documents: Sequence[str]) -> RerankResult:
        """Score every document against the query; never fails and sends nothing anywhere.

        Args:
            query: The retrieval query (e.g. a diff and a PR title).
            documents: Candidate texts.

        Returns:
            Index-aligned scores in [0, 1) and the order best first.
        """
        terms = code_terms(query)
        return RerankResult.from_scores([local_relevance(terms, d) for d in documents], self.model)
