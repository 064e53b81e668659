"""The model path against a local HTTP server speaking Anthropic's Messages API and OpenAI's chat format."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from sextant.analyzer.config import AnalyzerSettings
from sextant.analyzer.handlers import on_chunks_selected
from sextant.analyzer.prompting.prompts import FRAMING_LINE
from sextant.analyzer.report_shape.section_titles import SECTION_TITLES
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import AnalysisCompleted, ChunksSelected, SummaryCompleted
from sextant.llm import AnthropicModel, LanguageModel, OpenAICompatibleModel, RetryPolicy, model_from_env

from ..support.wire_formats import openai_chat_completion

ANALYSIS = "\n\n".join(f"## {i}. {title}\n\nText about {title.lower()}." for i, title in enumerate(SECTION_TITLES, 1))
FAST_RETRY = RetryPolicy(max_attempts=2, base_delay=0.0, max_delay=0.0)


def anthropic_reply(text: str, stop: str = "end_turn") -> dict[str, Any]:
    return {
        "id": "msg_01",
        "type": "message",
        "role": "assistant",
        "model": "claude-test-1",
        "content": [{"type": "thinking", "thinking": "hidden"}, {"type": "text", "text": text}],
        "stop_reason": stop,
        "usage": {"input_tokens": 1200, "cache_read_input_tokens": 100, "output_tokens": 800},
    }


def openai_reply(text: str) -> dict[str, Any]:
    return openai_chat_completion(text, model="gpt-test", prompt_tokens=1000, completion_tokens=500)


@pytest.fixture
def analysis_event(make_selection: Callable[..., ChunksSelected], shop_payloads: list[Any]) -> ChunksSelected:
    return make_selection(shop_payloads)


async def run(event: ChunksSelected, store: EdgeChunkStore, model: LanguageModel | None) -> Any:
    [out] = await on_chunks_selected(event, store, model, AnalyzerSettings())
    return out


async def test_anthropic_analysis_sections_usage_and_request(
    provider: Any, shop_store: EdgeChunkStore, analysis_event: ChunksSelected
) -> None:
    provider.replies = [(200, anthropic_reply(f"```markdown\n{ANALYSIS}\n```"))]
    model = AnthropicModel(api_key="sk-test", model="claude-test", base_url=provider.url, retry=FAST_RETRY)
    event = await run(analysis_event, shop_store, model)
    assert isinstance(event, AnalysisCompleted)
    assert list(event.sections) == list(SECTION_TITLES)
    assert event.sections["Documentation Accuracy"] == "Text about documentation accuracy."
    assert (event.model, event.provider) == ("claude-test-1", "anthropic")
    assert (event.usage.input_tokens, event.usage.output_tokens) == (1300, 800)
    assert "```" not in event.markdown
    assert any(c.status == "contradicted" for c in event.doc_claims)
    [request] = provider.requests
    assert request.path == "/v1/messages"
    assert request.headers["x-api-key"] == "sk-test"
    assert request.body["max_tokens"] == 5120
    assert FRAMING_LINE in request.body["system"]
    assert request.body["messages"][0]["content"] in event.prompt
    assert "OrderRepository.save_legacy()" in request.body["messages"][0]["content"]  # the evidence block


async def test_openai_compatible_analysis(
    provider: Any, shop_store: EdgeChunkStore, analysis_event: ChunksSelected
) -> None:
    provider.replies = [(200, openai_reply(ANALYSIS))]
    model = model_from_env({"LLM_PROVIDER": "openai", "LLM_BASE_URL": f"{provider.url}/v1", "LLM_MODEL": "gpt-x"})
    assert model is not None
    event = await run(analysis_event, shop_store, model)
    assert (event.model, event.provider, event.usage.input_tokens, event.usage.output_tokens) == (
        "gpt-test",
        "openai-compatible",
        1000,
        500,
    )
    assert list(event.sections) == list(SECTION_TITLES)
    [request] = provider.requests
    assert request.path == "/v1/chat/completions"
    assert [m["role"] for m in request.body["messages"]] == ["system", "user"]


async def test_missing_doc_accuracy_and_budget_stop_are_said_out_loud(
    provider: Any, shop_store: EdgeChunkStore, analysis_event: ChunksSelected
) -> None:
    partial = "## Architecture Overview\n\nA shop.\n\n## Tech Stack\n\nPython."
    provider.replies = [(200, anthropic_reply(partial, stop="max_tokens"))]
    model = AnthropicModel(api_key="k", model="claude-test", base_url=provider.url, retry=FAST_RETRY)
    event = await run(analysis_event, shop_store, model)
    accuracy = event.sections["Documentation Accuracy"]
    assert accuracy.startswith("_The model did not write this section;")
    assert "OrderRepository.save_legacy()" in accuracy
    assert "_The model did not write these sections: Code Quality, Security Observations" in event.markdown
    assert "_The model stopped at the output budget (5120 tokens)" in event.markdown


async def test_a_failing_model_falls_back_to_the_offline_report_and_says_why(
    provider: Any, shop_store: EdgeChunkStore, analysis_event: ChunksSelected
) -> None:
    provider.replies = [(500, {"type": "error", "error": {"type": "api_error", "message": "boom"}})]
    model = AnthropicModel(api_key="sk-secret-key", model="claude-test", base_url=provider.url, retry=FAST_RETRY)
    event = await run(analysis_event, shop_store, model)
    first_line = event.markdown.splitlines()[0]
    assert first_line.startswith(
        "No language model was used for this analysis (the configured model (anthropic, claude-test) failed: HTTP 500"
    )
    assert "gave up after 2 attempts" in first_line
    assert "sk-secret-key" not in event.markdown
    assert (event.model, event.provider, event.usage.input_tokens) == ("none", "none", 0)
    assert list(event.sections) == list(SECTION_TITLES)
    assert len(provider.requests) == 2
    assert event.prompt  # still assembled and kept
    [warning] = event.warnings
    assert "HTTP 500" in warning
    assert "sk-secret-key" not in warning


async def test_summary_with_a_model_parses_purpose_and_summary(
    provider: Any,
    shop_store: EdgeChunkStore,
    make_selection: Callable[..., ChunksSelected],
    shop_payloads: list[Any],
) -> None:
    provider.replies = [(200, openai_reply("**Purpose:** Takes orders.\n\n**Summary:** A small Python service."))]
    model = OpenAICompatibleModel(model="m", base_url=f"{provider.url}/v1", retry=FAST_RETRY)
    event = await run(make_selection(shop_payloads, "summary", 40), shop_store, model)
    assert isinstance(event, SummaryCompleted)
    assert (event.purpose, event.summary, event.model) == (
        "Takes orders.",
        "A small Python service.",
        "gpt-test",
    )
    body = provider.requests[0].body
    assert body["max_tokens"] == 1024
    assert "Documentation Accuracy" not in body["messages"][1]["content"]


async def test_summary_falls_back_to_evidence_when_the_model_fails(
    provider: Any,
    shop_store: EdgeChunkStore,
    make_selection: Callable[..., ChunksSelected],
    shop_payloads: list[Any],
) -> None:
    provider.replies = [(503, {"error": {"message": "overloaded"}})]
    model = OpenAICompatibleModel(model="m", base_url=f"{provider.url}/v1", retry=FAST_RETRY)
    event = await run(make_selection(shop_payloads, "summary", 40), shop_store, model)
    assert event.model == "none"
    assert event.purpose.startswith("Shop is a small order service")
    assert event.summary.startswith("No language model was used for this summary (the configured model")
    assert len(event.warnings) == 1
