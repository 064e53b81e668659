"""One traced language-model call: provider, model and token usage on the span, never prompt text.

The analyzer and the reviewer both ask a model through `traced_completion`, so every model call in
a trace looks the same (OpenTelemetry's ``gen_ai.*`` attributes) and a failure is an error span.
"""

from __future__ import annotations

from opentelemetry.trace import Status, StatusCode

from sextant.llm.completion import Completion, LanguageModel, LanguageModelError
from sextant.telemetry import tracer


async def traced_completion(
    model: LanguageModel, *, system: str, prompt: str, max_tokens: int, span_name: str, purpose: str
) -> Completion:
    """Ask the model once (its client retries transient failures within its own bounds), in a span.

    Args:
        model: The configured model.
        system: The system prompt.
        prompt: The user prompt.
        max_tokens: Output budget.
        span_name: The span's name, e.g. "analyzer.model_call".
        purpose: What the call is for ("analysis", "summary", "review"), a span attribute.

    Returns:
        The completion.

    Raises:
        LanguageModelError: when the call failed for good (the span records status and attempts).
    """
    attributes: dict[str, str | int] = {
        "gen_ai.operation.name": "chat",
        "gen_ai.system": model.provider,
        "gen_ai.request.model": model.model,
        "gen_ai.request.max_tokens": max_tokens,
        "sextant.purpose": purpose,
        "sextant.prompt_chars": len(system) + len(prompt),
    }
    with tracer(__name__).start_as_current_span(span_name, attributes=attributes) as span:
        try:
            completion = await model.complete(system=system, prompt=prompt, max_tokens=max_tokens)
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
