"""On every ChunksIndexed, select the chunks for the analysis (80) and for the summary (40)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import msgspec

from sextant.chunkstore import ChunkPayload
from sextant.contracts import (
    ChunksIndexed,
    ChunksSelected,
    Purpose,
    SelectedChunk,
    SelectionCounts,
    event_id_for,
    utc_now_iso,
)
from sextant.selection import DEFAULT_PAGE_SIZE, PayloadSource, Selection, select_from_payloads
from sextant.selector.config import SelectorSettings
from sextant.telemetry import tracer

_tracer = tracer(__name__)


def selection_event(source: ChunksIndexed, purpose: Purpose, selection: Selection) -> ChunksSelected:
    """The ChunksSelected event describing one selection."""
    chunks = [SelectedChunk(**msgspec.structs.asdict(chunk)) for chunk in selection.chunks]
    return ChunksSelected(
        event_id=event_id_for(ChunksSelected, source.run_id, purpose, source.event_id),
        run_id=source.run_id,
        occurred_at=utc_now_iso(),
        repo=source.repo,
        purpose=purpose,
        limit=selection.limit,
        chunks=chunks,
        median_code=selection.median_code,
        counts=SelectionCounts(
            total_chunks=selection.chunks_seen,
            code_available=selection.code_available,
            doc_available=selection.docs_available,
            picked_code=sum(1 for chunk in chunks if chunk.kind == "code"),
            picked_doc=sum(1 for chunk in chunks if chunk.kind == "doc"),
        ),
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
    events = []
    for purpose, limit in limits.items():
        with _tracer.start_as_current_span("selector.select", attributes={"sextant.purpose": purpose}) as span:
            selection = await asyncio.to_thread(_traced_selection, store, event.repo.repo_key, limit)
            span.set_attributes(
                {
                    "sextant.limit": limit,
                    "sextant.chunks_seen": selection.chunks_seen,
                    "sextant.chunks_picked": selection.picked,
                    "sextant.median_code": selection.median_code or "unknown",
                }
            )
        events.append(selection_event(event, purpose, selection))
    return events


def _traced_selection(store: PayloadSource, repo_key: str, limit: int) -> Selection:
    """One streaming pass: the scroll is its own span; ranking what it kept is another."""
    return select_from_payloads(_scrolled(store, repo_key), limit)


def _scrolled(store: PayloadSource, repo_key: str) -> Iterator[ChunkPayload]:
    with _tracer.start_as_current_span("selector.scroll") as span:
        count = 0
        for payload in store.scroll_payloads(repo_key, page_size=DEFAULT_PAGE_SIZE):
            count += 1
            yield payload
        span.set_attribute("sextant.payloads", count)
