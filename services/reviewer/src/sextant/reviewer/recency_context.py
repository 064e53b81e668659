"""The review-context recency rules (docs/analysis.md), applied after rerank and before the prompt.

- Median: the median last-modified date of the *retrieved* code chunks' files (no extra store trip).
- Demotion: a doc chunk stale by the shared rule (``sextant.doc_rules.is_stale_doc``: more than
  ``STALE_DOC_GAP`` older than that median) is dropped unless its rerank score is ≥ ``KEEP_STALE_DOC_SCORE``.
  A chunk without a rerank score (rerank failed, original order kept) has not earned its place.
- Annotation: surviving doc chunks get ``(documentation — verify against code)`` in their
  ``// path:Lx-Ly`` header; every chunk with a known date gets ``last modified <day>``, the day by the
  shared rule (``sextant.doc_rules.calendar_day`` of ``payload_date``). The path in the header is
  repository text, cleaned to one line (``sextant.llm.clean_untrusted_line``); the prompt puts the
  header inside the chunk's data fence.
- A missing date anywhere means no demotion and no annotation for that chunk; with no dated code the
  median is unknown and nothing is demoted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sextant.chunkstore import ChunkPayload
from sextant.doc_rules import calendar_day, is_stale_doc, median_date, months_older, payload_date
from sextant.llm import clean_untrusted_line

KEEP_STALE_DOC_SCORE = 0.6
"""A stale doc chunk scoring at least this in rerank keeps its place (docs/analysis.md)."""
DOC_HEADER_NOTE = "(documentation — verify against code)"


@dataclass(frozen=True)
class RetrievedChunk:
    """A chunk from hybrid search, after rerank."""

    payload: ChunkPayload
    score: float | None
    """Rerank score in [0, 1]; None when rerank failed and the search order was kept."""


@dataclass(frozen=True)
class ContextDecision:
    """What the recency rules decided for one retrieved chunk."""

    chunk: RetrievedChunk
    kept: bool
    reason: str
    header: str


def chunk_header(payload: ChunkPayload) -> str:
    """``// path:Lx-Ly`` plus the doc note and the day, when they apply; the path cleaned to one line."""
    header = f"// {clean_untrusted_line(payload.path)}:L{payload.start_line}-L{payload.end_line}"
    if payload.kind == "doc":
        header += f" {DOC_HEADER_NOTE}"
    day = calendar_day(payload_date(payload))
    if day:
        header += f" (last modified {day})"
    return header


def retrieved_code_median(chunks: Sequence[RetrievedChunk]) -> str | None:
    """Median date over the distinct code files among the retrieved chunks."""
    dates = {c.payload.path: payload_date(c.payload) for c in chunks if c.payload.kind == "code"}
    return median_date(dates.values())


def apply_recency_to_context(chunks: Sequence[RetrievedChunk]) -> tuple[list[ContextDecision], str | None]:
    """Decide, in order, which retrieved chunks reach the prompt and how each is headed.

    Args:
        chunks: Reranked chunks, best first.

    Returns:
        One decision per chunk (same order), and the median code date that was used.
    """
    median = retrieved_code_median(chunks)
    decisions = []
    for chunk in chunks:
        payload = chunk.payload
        date = payload_date(payload)
        kept, reason = True, "code" if payload.kind == "code" else "doc, current"
        if date is None:
            reason = f"{payload.kind}, age unknown (no demotion)"
        elif payload.kind == "doc" and is_stale_doc(date, median):
            gap = f"{months_older(date, median)} months older than the retrieved code (median {median})"
            score = "no rerank score" if chunk.score is None else f"rerank score {chunk.score:.2f}"
            kept = chunk.score is not None and chunk.score >= KEEP_STALE_DOC_SCORE
            comparison = "≥" if kept else "<"
            verdict = "kept" if kept else "dropped"
            reason = f"stale doc {verdict}: {gap}; {score} {comparison} {KEEP_STALE_DOC_SCORE}"
        decisions.append(ContextDecision(chunk=chunk, kept=kept, reason=reason, header=chunk_header(payload)))
    return decisions, median
