"""Retrieval for a change: a bounded query, dense + sparse search fused with RRF, then rerank.

While a repository's dense vectors are still being written, the search is sparse-only (a hybrid
search over a half-embedded index would favour the embedded half for no reason of relevance), and
the retrieval says so: its `search` is "sparse-only" and a warning counts the points still missing.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from sextant.chunkstore import ChunkStore, ScoredChunk, best_window_per_symbol
from sextant.embedding import DenseEmbedder, SparseEncoder
from sextant.rerank import Reranker
from sextant.reviewer.diff_reading import DiffSummary
from sextant.reviewer.recency_context import RetrievedChunk
from sextant.secret_rules import redact_file_text
from sextant.telemetry import tracer

_tracer = tracer(__name__)
HYBRID = "hybrid"
SPARSE_ONLY = "sparse-only"


def build_query(title: str, description: str, diff: DiffSummary, max_chars: int) -> str:
    """The retrieval query: title, the start of the description, changed files, identifiers, changed lines.

    Bounded to ``max_chars`` so a huge diff never makes a huge query.
    """
    parts = [title.strip(), description.strip()[:500]]
    parts.append(" ".join(change.new_path for change in diff.files if not change.deleted))
    parts.append(" ".join(diff.touched_identifiers()))
    for change in diff.files:
        parts.extend(line.strip() for line in change.added + change.removed if line.strip())
    query = "\n".join(part for part in parts if part)
    return query[:max_chars]


def distinct_symbols(hits: list[ScoredChunk]) -> list[ScoredChunk]:
    """Keep the best-ranked window of each symbol that was split into windows (hits are best first)."""
    return best_window_per_symbol(
        hits, lambda payload: (payload.path, payload.symbol, payload.parent, payload.symbol_type)
    )


@dataclass(frozen=True)
class Retrieval:
    """What retrieval found, and what went wrong without stopping it."""

    chunks: list[RetrievedChunk]
    rerank_model: str
    warnings: list[str]
    search: str = "hybrid"
    """HYBRID or SPARSE_ONLY: how the candidates were found."""


async def retrieve(
    *,
    store: ChunkStore,
    embedder: DenseEmbedder,
    sparse: SparseEncoder,
    reranker: Reranker,
    repo_key: str,
    query: str,
    limit: int,
) -> Retrieval:
    """Hybrid search (sparse-only while dense vectors are incomplete), one window per symbol, reranked.

    Args:
        store: The chunk store.
        embedder: Dense query embedding.
        sparse: BM25 query encoding.
        reranker: Cohere or the local fallback; it never raises.
        repo_key: Repository to search.
        query: The retrieval query.
        limit: How many hits to fuse (50 by default).

    Returns:
        The reranked chunks (scores None when rerank failed), how they were searched, and any warnings.
    """
    warnings = []
    with _tracer.start_as_current_span("reviewer.hybrid_search") as span:
        sparse_query = sparse.encode_query(query)
        missing = await asyncio.to_thread(store.count_missing_dense, repo_key)
        if missing:
            search = SPARSE_ONLY
            hits = await asyncio.to_thread(lambda: store.search_chunks(repo_key, sparse=sparse_query, limit=limit))
            warnings.append(
                f"dense vectors are not complete yet ({missing} chunks without one): this review's search "
                "was sparse-only"
            )
        else:
            search = HYBRID
            dense = await embedder.embed_query(query)
            hits = await asyncio.to_thread(store.hybrid_search, repo_key, dense, sparse_query, limit)
        hits = distinct_symbols(hits)
        span.set_attributes({"sextant.hits": len(hits), "sextant.limit": limit, "sextant.search": search})
    with _tracer.start_as_current_span("reviewer.rerank", attributes={"sextant.reranker": reranker.name}) as span:
        # A hosted reranker reads the chunks too: they go masked, as they do into the prompt.
        documents = [redact_file_text(hit.payload.path, hit.payload.text) for hit in hits]
        result = await reranker.rerank(query, documents)
        span.set_attribute("sextant.rerank.model", result.model)
    if result.warning:
        warnings.append(result.warning)
    chunks = [RetrievedChunk(payload=hits[i].payload, score=result.score(i)) for i in result.order]
    return Retrieval(chunks=chunks, rerank_model=result.model, warnings=warnings, search=search)
