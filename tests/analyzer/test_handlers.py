"""Handlers produce the events: analysis and summary without a model, StageFailed for an empty selection."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from sextant.analyzer.config import AnalyzerSettings
from sextant.analyzer.handlers import NOTHING_INDEXED, on_chunks_selected
from sextant.analyzer.prompting.prompts import FRAMING_LINE
from sextant.analyzer.report_shape.section_titles import SECTION_TITLES
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import (
    AnalysisCompleted,
    ChunksSelected,
    StageFailed,
    SummaryCompleted,
    decode_event,
    encode_event,
)


async def test_offline_analysis_event(
    shop_store: EdgeChunkStore, make_selection: Callable[..., ChunksSelected], shop_payloads: list[Any]
) -> None:
    selection = make_selection(shop_payloads)
    [event] = await on_chunks_selected(selection, shop_store, None, AnalyzerSettings())
    assert isinstance(event, AnalysisCompleted)
    assert (event.model, event.provider, event.usage.input_tokens) == ("none", "none", 0)
    assert event.markdown.startswith("No language model was used for this analysis (none is configured).")
    assert list(event.sections) == list(SECTION_TITLES)
    assert (event.run_id, event.repo, event.head_sha, event.counts) == (
        selection.run_id,
        selection.repo,
        selection.head_sha,
        selection.counts,
    )
    assert event.median_code == selection.median_code == "2026-04-01T12:00:00+00:00"
    assert FRAMING_LINE in event.prompt
    contradicted = [c for c in event.doc_claims if c.status == "contradicted"]
    assert ("docs/design.md", 3, "OrderRepository.save_legacy()", "symbol") in {
        (c.doc, c.line, c.ref, c.kind) for c in contradicted
    }
    # The event survives the wire, and a redelivery gives the same id (JetStream de-duplicates it).
    assert decode_event(encode_event(event)) == event
    [again] = await on_chunks_selected(selection, shop_store, None, AnalyzerSettings())
    assert again.event_id == event.event_id
    assert msgspec.structs.replace(again, occurred_at=event.occurred_at) == event


async def test_offline_summary_event(
    shop_store: EdgeChunkStore, make_selection: Callable[..., ChunksSelected], shop_payloads: list[Any]
) -> None:
    selection = make_selection(shop_payloads, "summary", 40)
    [event] = await on_chunks_selected(selection, shop_store, None, AnalyzerSettings())
    assert isinstance(event, SummaryCompleted)
    assert event.purpose.startswith("Shop is a small order service")
    assert event.model == "none"
    assert (
        event.event_id
        != (await on_chunks_selected(make_selection(shop_payloads), shop_store, None, AnalyzerSettings()))[0].event_id
    )


async def test_an_empty_selection_is_a_stage_failure(
    edge_store: EdgeChunkStore, make_selection: Callable[..., ChunksSelected]
) -> None:
    selection = make_selection([])
    [event] = await on_chunks_selected(selection, edge_store, None, AnalyzerSettings())
    assert isinstance(event, StageFailed)
    assert (event.stage, event.reason, event.cause_event_id, event.cause_type) == (
        "analyzer",
        NOTHING_INDEXED,
        selection.event_id,
        "chunks.selected",
    )


def test_settings_from_env() -> None:
    settings = AnalyzerSettings.from_env({"ANALYSIS_MAX_TOKENS": "8000", "SUMMARY_MAX_TOKENS": ""})
    assert (settings.analysis_max_tokens, settings.summary_max_tokens) == (8000, 1024)
