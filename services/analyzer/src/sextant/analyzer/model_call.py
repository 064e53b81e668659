"""One traced language-model call: provider, model and token usage on the span, never prompt text."""

from __future__ import annotations

from opentelemetry.trace import Status, StatusCode

from sextant.analyzer.prompts import Prompt
from sextant.llm import Completion, LanguageModel, LanguageModelError
from sextant.telemetry import tracer


async def call_model(model: LanguageModel, prompt: Prompt, *, max_tokens: int, purpose: str) -> Completion:
    """Ask the model once (its client retries transient failures within its own bounds).

    Args:
        model: The configured model.
        prompt: System and user prompt.
        max_tokens: Output budget.
        purpose: "analysis" or "summary" (span attribute).

    Returns:
        The completion.

    Raises:
        LanguageModelError: when the call failed for good.
    """
    attributes: dict[str, str | int] = {
        "gen_ai.operation.name": "chat",
        "gen_ai.system": model.provider,
        "gen_ai.request.model": model.model,
        "gen_ai.request.max_tokens": max_tokens,
        "sextant.purpose": purpose,
        "sextant.prompt_chars": len(prompt.system) + len(prompt.user),
    }
    with tracer(__name__).start_as_current_span("analyzer.model_call", attributes=attributes) as span:
        try:
            completion = await model.complete(system=prompt.system, prompt=prompt.user, max_tokens=max_tokens)
        except LanguageModelError as error:
            span.set_attribute("error.type", "LanguageModelError")
            span.set_attribute("sextant.model_attempts", error.attempts)
            if error.status is not None:
                span.set_attribute("http.response.status_code", error.status)
            span.set_status(Status(StatusCode.ERROR, "language model call failed"))
            raise
        span.set_attributes(
            {
                "gen_ai.response.model": completion.model,
                "gen_ai.usage.input_tokens": completion.input_tokens,
                "gen_ai.usage.output_tokens": completion.output_tokens,
                "gen_ai.response.finish_reasons": [completion.stop_reason or "unknown"],
                "sextant.completion_chars": len(completion.text),
            }
        )
    return completion


def failure_reason(model: LanguageModel, error: LanguageModelError) -> str:
    """Why the configured model produced nothing, in words safe to show (no key, no prompt).

    Args:
        model: The model that was called.
        error: Its failure.

    Returns:
        e.g. "the configured model (anthropic, claude-sonnet-4-5) failed: HTTP 500; gave up after 3 attempts".
    """
    return f"the configured model ({model.provider}, {model.model}) failed: {error.reason}"
