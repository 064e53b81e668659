"""On every ChunksIndexed, select the chunks for the analysis (80) and for the summary (40)."""

from __future__ import annotations

import asyncio

import msgspec

from sextant.contracts import (
    ChunksIndexed,
    ChunksSelected,
    Purpose,
    SelectedChunk,
    SelectionCounts,
    event_id_for,
    utc_now_iso,
)
from sextant.selection import PayloadSource, Selection, select_analysis_chunks
from sextant.selector.config import SelectorSettings


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
        selection = await asyncio.to_thread(select_analysis_chunks, store, event.repo.repo_key, limit)
        events.append(selection_event(event, purpose, selection))
    return events
