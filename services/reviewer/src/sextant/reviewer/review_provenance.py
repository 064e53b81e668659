"""What a review stands on: the context it kept, how that context was searched, and the model."""

from __future__ import annotations

from collections.abc import Sequence

from sextant.contracts import Provenance, ReadChunk, StaleDocFraming, TokenUsage
from sextant.doc_rules import payload_date
from sextant.reviewer.recency_context import ContextDecision
from sextant.reviewer.retrieval import HYBRID


def review_provenance(
    decisions: Sequence[ContextDecision],
    median_code: str | None,
    *,
    search: str,
    model: str,
    provider: str,
    usage: TokenUsage,
) -> Provenance:
    """The review's provenance.

    Args:
        decisions: The recency decisions over the retrieved chunks.
        median_code: The median date of the retrieved code.
        search: "hybrid" or "sparse-only".
        model: The model used, or "none".
        provider: Its provider.
        usage: Tokens the review cost.

    Returns:
        The kept chunks as read, stale docs that were dropped or kept and why, the search and model.
    """
    kept = [d.chunk.payload for d in decisions if d.kept]
    read = [ReadChunk.of(p, payload_date(p)) for p in kept]
    docs = sum(1 for chunk in read if chunk.kind == "doc")
    stale = [
        StaleDocFraming(path=d.chunk.payload.path, last_modified_at=payload_date(d.chunk.payload), reason=d.reason)
        for d in decisions
        if d.reason.startswith("stale doc")
    ]
    return Provenance(
        chunks=read,
        code_chunks=len(read) - docs,
        doc_chunks=docs,
        doc_share=round(docs / len(read), 3) if read else 0.0,
        stale_docs=stale,
        median_code=median_code,
        model=model,
        provider=provider,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        dense_vectors=search == HYBRID,
        search=search,
    )
