"""On every ChunksIndexed, select the chunks for the analysis (80) and the summary (40) in one scroll."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

from sextant.chunkstore import ChunkPayload
from sextant.contracts import (
    ChunksIndexed,
    ChunksSelected,
    Purpose,
    event_id_for,
    utc_now_iso,
)
from sextant.selection import DEFAULT_PAGE_SIZE, PayloadSource, Selection, select_for_limits
from sextant.selector.config import SelectorSettings
from sextant.telemetry import tracer

_tracer = tracer(__name__)


def selection_event(source: ChunksIndexed, purpose: Purpose, selection: Selection) -> ChunksSelected:
    """The ChunksSelected event describing one selection."""
    chunks = selection.chunks
    return ChunksSelected(
        event_id=event_id_for(ChunksSelected, source.run_id, purpose, source.event_id),
        run_id=source.run_id,
        occurred_at=utc_now_iso(),
        repo=source.repo,
        purpose=purpose,
        limit=selection.limit,
        chunks=chunks,
        median_code=selection.median_code,
        counts=selection.counts(),
        head_sha=source.head_sha,
    )


async def on_chunks_indexed(
    event: ChunksIndexed, store: PayloadSource, settings: SelectorSettings
) -> list[ChunksSelected]:
    """Select for both purposes from the freshly indexed repository.

    Args:
        event: The index run that finished.
        store: The chunk store (payload-only scroll).
        settings: Limits per purpose.

    Returns:
        One ChunksSelected for the analysis and one for the summary.
    """
    limits: dict[Purpose, int] = {"analysis": settings.analysis_limit, "summary": settings.summary_limit}
    with _tracer.start_as_current_span("selector.select") as span:
        selections = await asyncio.to_thread(_traced_selections, store, event.repo.repo_key, list(limits.values()))
        span.set_attributes(
            {
                "sextant.chunks_seen": selections[0].chunks_seen,
                "sextant.median_code": selections[0].median_code or "unknown",
                **{f"sextant.picked.{purpose}": s.picked for purpose, s in zip(limits, selections, strict=True)},
            }
        )
    return [selection_event(event, purpose, s) for purpose, s in zip(limits, selections, strict=True)]


def _traced_selections(store: PayloadSource, repo_key: str, limits: list[int]) -> list[Selection]:
    """One streaming pass serves every purpose: the scroll is its own span."""
    return select_for_limits(_scrolled(store, repo_key), limits)


def _scrolled(store: PayloadSource, repo_key: str) -> Iterator[ChunkPayload]:
    with _tracer.start_as_current_span("selector.scroll") as span:
        count = 0
        for payload in store.scroll_payloads(repo_key, page_size=DEFAULT_PAGE_SIZE):
            count += 1
            yield payload
        span.set_attribute("sextant.payloads", count)
