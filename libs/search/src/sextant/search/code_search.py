"""Search code and docs over one or more repositories: hybrid when the dense side is complete, else sparse."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

from sextant.chunkstore import ChunkStore, ScoredChunk, best_window_per_symbol
from sextant.doc_rules import payload_date
from sextant.embedding import DenseEmbedder, SparseEncoder
from sextant.search.ages import age_words
from sextant.search.dense_coverage import points_missing_dense
from sextant.search.hits import SearchHit, SearchMode, SearchOutcome
from sextant.search.snippets import snippet_for
from sextant.search.trust import retrieved_code_median, trust_note

DEFAULT_RESULT_LIMIT = 10
"""Hits shown when the caller does not say."""
PATH_FILTER_OVERFETCH = 8
"""A path glob is applied after the store ranks, so that many times the limit is fetched first."""
MAX_CANDIDATES = 400
"""Upper bound on what one repository contributes before filtering."""


@dataclass(frozen=True)
class SearchRequest:
    """One query."""

    query: str
    repo_keys: Sequence[str]
    kind: str | None = None
    """"code", "doc" or None for both."""
    path_glob: str | None = None
    """Only paths matching this shell glob (``*`` crosses folders: ``src/*.py``, ``*.md``)."""
    limit: int = DEFAULT_RESULT_LIMIT
    mode: SearchMode | None = None
    """Force one mode (the benchmark compares them); None = hybrid, or sparse while dense is incomplete."""


@dataclass
class CodeSearcher:
    """Runs searches against one store with one embedder; cheap to keep for many queries."""

    store: ChunkStore
    embedder: DenseEmbedder
    sparse: SparseEncoder
    doc_note: str
    """The documentation framing printed on every doc hit (the review context's own note)."""

    async def missing_dense(self, repo_key: str) -> int:
        """Points of ``repo_key`` still without their dense vector (checked on every query: the dense
        vectors arrive in the background, and the count is one indexed filter).

        Args:
            repo_key: Repository.

        Returns:
            The count; 0 means hybrid search is sound.
        """
        return await asyncio.to_thread(points_missing_dense, self.store, repo_key)

    async def search(self, request: SearchRequest) -> SearchOutcome:
        """Rank chunks of every requested repository for the query, best first.

        Args:
            request: Query, repositories, filters, limit and optional forced mode.

        Returns:
            Hits framed with ages and stale-doc notes, the mode used and notes for the reader.
        """
        notes: list[str] = []
        mode = request.mode or "hybrid"
        if request.mode is None:
            incomplete = [key for key in request.repo_keys if await self.missing_dense(key)]
            if incomplete:
                mode = "sparse"
                notes.append(f"sparse only: dense vectors are still incomplete for {', '.join(incomplete)}")
        dense = await self.embedder.embed_query(request.query) if mode != "sparse" else None
        sparse = self.sparse.encode_query(request.query) if mode != "dense" else None
        candidates = request.limit * (PATH_FILTER_OVERFETCH if request.path_glob else 1)
        found: list[ScoredChunk] = []
        for key in request.repo_keys:
            hits = await asyncio.to_thread(
                self.store.search_chunks, key, dense=dense, sparse=sparse, kind=request.kind,
                limit=min(candidates, MAX_CANDIDATES),
            )  # fmt: skip
            if not hits and not await asyncio.to_thread(self.store.count, key):
                notes.append(f"nothing is indexed for {key}: run `sextant index` on it first")
            found.extend(hit for hit in hits if _path_matches(hit.payload.path, request.path_glob))
        ranked = distinct_symbols(sorted(found, key=lambda hit: hit.score, reverse=True))[: request.limit]
        return frame(request.query, mode, ranked, notes, self.doc_note)


def frame(
    query: str, mode: SearchMode, ranked: Sequence[ScoredChunk], notes: list[str], doc_note: str
) -> SearchOutcome:
    """Turn ranked store hits into dated, framed search hits.

    Args:
        query: The query (for snippets).
        mode: How the hits were found.
        ranked: Store hits, best first.
        notes: Notes gathered so far.
        doc_note: The documentation framing.

    Returns:
        The outcome.
    """
    median = retrieved_code_median([hit.payload for hit in ranked])
    hits = []
    for hit in ranked:
        payload = hit.payload
        date = payload_date(payload)
        stale, note = trust_note(payload, median, doc_note)
        hits.append(
            SearchHit(
                repo_key=payload.repo_key,
                path=payload.path,
                start_line=payload.start_line,
                end_line=payload.end_line,
                kind=payload.kind,
                language=payload.language,
                symbol=payload.symbol,
                symbol_type=payload.symbol_type,
                score=hit.score,
                last_modified_at=date,
                age=age_words(date),
                stale=stale,
                trust_note=note,
                snippet=snippet_for(payload.text, query),
            )
        )
    return SearchOutcome(query=query, mode=mode, hits=hits, notes=notes, median_code=median)


def distinct_symbols(hits: Sequence[ScoredChunk]) -> list[ScoredChunk]:
    """The best-ranked window of each split symbol; a search may span repositories, so they key it too."""
    return best_window_per_symbol(
        hits, lambda payload: (payload.repo_key, payload.path, payload.symbol, payload.parent)
    )


def _path_matches(path: str, glob: str | None) -> bool:
    return glob is None or fnmatchcase(path, glob) or fnmatchcase(path, glob.rstrip("/") + "/*")
