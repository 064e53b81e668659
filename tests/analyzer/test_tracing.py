"""Spans: context formatting, prompt assembly, evidence and the model call, with counts and usage only."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from sextant.analyzer.config import AnalyzerSettings
from sextant.analyzer.handlers import on_chunks_selected
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import ChunksSelected
from sextant.llm import AnthropicModel, RetryPolicy
from sextant.telemetry import ServiceTracing, install


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    tracing = ServiceTracing({}, processors=[lambda: SimpleSpanProcessor(exporter)])
    install(tracing)
    try:
        yield exporter
    finally:
        install(None)
        tracing.shutdown()


@pytest.fixture
def analyse_shop(
    provider: Any,
    shop_store: EdgeChunkStore,
    make_selection: Callable[..., ChunksSelected],
    shop_payloads: list[Any],
) -> Callable[[], Awaitable[None]]:
    """Analyse the shop selection with an Anthropic model at the fake provider (one attempt)."""

    async def analyse() -> None:
        model = AnthropicModel(
            api_key="k", model="claude-test", base_url=provider.url, retry=RetryPolicy(max_attempts=1)
        )
        await on_chunks_selected(make_selection(shop_payloads), shop_store, model, AnalyzerSettings())

    return analyse


async def test_spans_carry_counts_models_and_usage_never_repository_text(
    spans: InMemorySpanExporter, provider: Any, analyse_shop: Callable[[], Awaitable[None]]
) -> None:
    provider.replies = [
        (
            200,
            {
                "model": "claude-test-1",
                "content": [{"type": "text", "text": "## Architecture Overview\n\nA shop."}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": 321, "output_tokens": 45},
            },
        )
    ]
    await analyse_shop()
    by_name = {span.name: span for span in spans.get_finished_spans()}
    assert {
        "analyzer.gather_evidence",
        "analyzer.format_context",
        "analyzer.build_prompt",
        "analyzer.model_call",
    } <= set(by_name)
    context = by_name["analyzer.format_context"].attributes or {}
    assert (context["sextant.code_chunks"], context["sextant.doc_chunks"], context["sextant.stale_doc_chunks"]) == (
        16,
        3,
        1,
    )
    call = by_name["analyzer.model_call"].attributes or {}
    assert (call["gen_ai.system"], call["gen_ai.request.model"], call["gen_ai.response.model"]) == (
        "anthropic",
        "claude-test",
        "claude-test-1",
    )
    assert (call["gen_ai.usage.input_tokens"], call["gen_ai.usage.output_tokens"]) == (321, 45)
    assert call["gen_ai.request.max_tokens"] == 5120
    every_value = " ".join(
        str(value) for span in spans.get_finished_spans() for value in (span.attributes or {}).values()
    )
    for repository_text in ("OrderRepository", "Shop is", "shop/orders.py", "README"):
        assert repository_text not in every_value


async def test_a_failed_model_call_is_an_error_span(
    spans: InMemorySpanExporter, provider: Any, analyse_shop: Callable[[], Awaitable[None]]
) -> None:
    provider.replies = [(401, {"type": "error", "error": {"type": "authentication_error", "message": "bad key"}})]
    await analyse_shop()
    [call] = [span for span in spans.get_finished_spans() if span.name == "analyzer.model_call"]
    assert call.status.status_code == StatusCode.ERROR
    assert (call.attributes or {})["http.response.status_code"] == 401
