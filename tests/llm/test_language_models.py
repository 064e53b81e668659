"""Anthropic and OpenAI-compatible clients against a local server speaking each real wire format."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import httpx
import pytest

from sextant.llm import (
    AnthropicModel,
    Completion,
    LanguageModel,
    LanguageModelError,
    OpenAICompatibleModel,
    RetryPolicy,
)

from ..support.wire_formats import openai_chat_completion

KEY = "sk-test-0123456789abcdef-secret"
FAST = RetryPolicy(max_attempts=3, base_delay=0.01, max_delay=0.05)

ANTHROPIC_OK = {
    "id": "msg_01",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5-20250929",
    "content": [
        {"type": "thinking", "thinking": "private reasoning", "signature": "x"},
        {"type": "text", "text": "## Architecture Overview\n"},
        {"type": "text", "text": "A small service."},
    ],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {
        "input_tokens": 1200,
        "cache_creation_input_tokens": 30,
        "cache_read_input_tokens": 0,
        "output_tokens": 345,
    },
}

OPENAI_OK = openai_chat_completion("Looks fine.", model="qwen2.5-coder:7b", prompt_tokens=812, completion_tokens=3)


def anthropic(server: Any, **kwargs: Any) -> AnthropicModel:
    options: dict[str, Any] = {"retry": FAST, "timeout": 5.0}
    options.update(kwargs)
    return AnthropicModel(api_key=KEY, model="claude-sonnet-4-5", base_url=server.url, **options)


def openai(server: Any, **kwargs: Any) -> OpenAICompatibleModel:
    options: dict[str, Any] = {"retry": FAST, "timeout": 5.0, "api_key": KEY}
    options.update(kwargs)
    return OpenAICompatibleModel(model="qwen2.5-coder:7b", base_url=f"{server.url}/v1", **options)


async def test_anthropic_sends_messages_wire_format_and_reads_text_and_usage(provider_server: Any) -> None:
    provider_server.script({"body": ANTHROPIC_OK})
    model: LanguageModel = anthropic(provider_server)

    completion = await model.complete(system="You analyse repos.", prompt="Analyse this.", max_tokens=5120)

    assert completion == Completion(
        text="## Architecture Overview\nA small service.",
        model="claude-sonnet-4-5-20250929",
        provider="anthropic",
        input_tokens=1230,
        output_tokens=345,
        stop_reason="end_turn",
    )
    (request,) = provider_server.requests
    assert request.path == "/v1/messages"
    assert request.headers["x-api-key"] == KEY
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert request.headers["content-type"] == "application/json"
    assert "authorization" not in request.headers
    assert request.body == {
        "model": "claude-sonnet-4-5",
        "max_tokens": 5120,
        "system": "You analyse repos.",
        "messages": [{"role": "user", "content": "Analyse this."}],
    }


async def test_openai_compatible_sends_bearer_key_and_reads_first_choice(provider_server: Any) -> None:
    provider_server.script({"body": OPENAI_OK})

    completion = await openai(provider_server, temperature=0.0).complete(
        system="Review.", prompt="diff --git a/x b/x", max_tokens=800
    )

    assert completion == Completion(
        text="Looks fine.",
        model="qwen2.5-coder:7b",
        provider="openai-compatible",
        input_tokens=812,
        output_tokens=3,
        stop_reason="stop",
    )
    (request,) = provider_server.requests
    assert request.path == "/v1/chat/completions"
    assert request.headers["authorization"] == f"Bearer {KEY}"
    assert request.body == {
        "model": "qwen2.5-coder:7b",
        "messages": [
            {"role": "system", "content": "Review."},
            {"role": "user", "content": "diff --git a/x b/x"},
        ],
        "max_tokens": 800,
        "temperature": 0.0,
    }


async def test_openai_compatible_without_key_sends_no_authorization(provider_server: Any) -> None:
    provider_server.script({"body": OPENAI_OK})

    await openai(provider_server, api_key=None, max_tokens_field="max_completion_tokens").complete(
        system="s", prompt="p", max_tokens=10
    )

    (request,) = provider_server.requests
    assert "authorization" not in request.headers
    assert request.body["max_completion_tokens"] == 10
    assert "max_tokens" not in request.body


async def test_openai_compatible_reads_part_lists_and_drops_inline_reasoning(provider_server: Any) -> None:
    answer = {
        "model": "deepseek-r1",
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "content": [{"type": "text", "text": "<think>hmm</think>\n\nThe answer."}],
                },
                "finish_reason": "length",
            }
        ],
    }
    provider_server.script({"body": answer})

    completion = await openai(provider_server).complete(system="s", prompt="p", max_tokens=10)

    assert completion.text == "The answer."
    assert completion.stop_reason == "length"
    assert (completion.input_tokens, completion.output_tokens) == (0, 0)  # usage not reported


@pytest.mark.parametrize("header", [{"retry-after": "0.2"}, {"retry-after-ms": "200"}])
async def test_429_waits_as_told_then_succeeds(provider_server: Any, header: dict[str, str]) -> None:
    limited = {"type": "error", "error": {"type": "rate_limit_error", "message": "slow down"}}
    provider_server.script({"status": 429, "body": limited, "headers": header}, {"body": ANTHROPIC_OK})

    started = time.monotonic()
    completion = await anthropic(provider_server).complete(system="s", prompt="p", max_tokens=10)

    assert completion.output_tokens == 345
    assert len(provider_server.requests) == 2
    assert time.monotonic() - started >= 0.2


@pytest.mark.parametrize("status", [500, 503, 529])
async def test_server_errors_and_overload_are_retried(provider_server: Any, status: int) -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    provider_server.script({"status": status, "body": overloaded}, {"body": ANTHROPIC_OK})

    completion = await anthropic(provider_server).complete(system="s", prompt="p", max_tokens=10)

    assert completion.text.startswith("## Architecture")
    assert len(provider_server.requests) == 2


async def test_openai_500_then_success(provider_server: Any) -> None:
    provider_server.script({"status": 500, "body": {"error": {"message": "boom"}}}, {"body": OPENAI_OK})

    completion = await openai(provider_server).complete(system="s", prompt="p", max_tokens=10)

    assert completion.text == "Looks fine."
    assert len(provider_server.requests) == 2


async def test_persistent_5xx_gives_up_after_bounded_attempts(provider_server: Any) -> None:
    provider_server.script({"status": 502, "body": {"error": {"message": "bad gateway"}}})

    with pytest.raises(LanguageModelError) as caught:
        await openai(provider_server).complete(system="s", prompt="p", max_tokens=10)

    assert caught.value.status == 502
    assert caught.value.attempts == 3
    assert len(provider_server.requests) == 3
    assert "gave up after 3 attempts" in str(caught.value)


async def test_timeout_fails_fast_after_bounded_retries(provider_server: Any) -> None:
    provider_server.script({"body": ANTHROPIC_OK, "delay": 10.0})
    model = anthropic(provider_server, timeout=0.2, retry=RetryPolicy(max_attempts=2, base_delay=0.01))

    with pytest.raises(LanguageModelError) as caught:
        await model.complete(system="s", prompt="p", max_tokens=10)

    # The bound is the attempt count, not a wall-clock figure: on a loaded machine a retry can time
    # out before the server's thread has even read it, so the server may see fewer requests.
    assert caught.value.status is None
    assert caught.value.attempts == 2
    assert "timed out after 0.2 s" in caught.value.reason
    assert len(provider_server.requests) <= 2  # none, when both attempts time out first


@pytest.mark.parametrize("factory", [anthropic, openai])
async def test_401_is_not_retried_and_never_shows_the_key(provider_server: Any, factory: Any) -> None:
    # Some providers quote the rejected key back; it must not reach our error text.
    rejected = {"error": {"type": "authentication_error", "message": f"invalid x-api-key {KEY}"}}
    provider_server.script({"status": 401, "body": rejected})
    model = factory(provider_server)

    with pytest.raises(LanguageModelError) as caught:
        await model.complete(system="s", prompt="p", max_tokens=10)

    assert len(provider_server.requests) == 1
    assert caught.value.status == 401
    assert "authentication_error" in str(caught.value)
    error = caught.value
    for text in (str(error), repr(error), error.reason, repr(model), str(error.args)):
        assert KEY not in text
    assert caught.value.__cause__ is None
    assert caught.value.__suppress_context__


async def test_retry_logs_never_show_the_key(provider_server: Any, caplog: pytest.LogCaptureFixture) -> None:
    echoed = {"error": {"message": f"upstream rejected {KEY}"}}
    provider_server.script({"status": 500, "body": echoed}, {"body": OPENAI_OK})

    with caplog.at_level(logging.WARNING, logger="sextant.llm"):
        await openai(provider_server).complete(system="s", prompt="p", max_tokens=10)

    assert "retry 1 of 2" in caplog.text
    assert "upstream rejected [redacted]" in caplog.text
    assert KEY not in caplog.text


async def test_400_is_not_retried(provider_server: Any) -> None:
    provider_server.script({"status": 400, "body": {"error": {"message": "max_tokens too large"}}})

    with pytest.raises(LanguageModelError, match=r"HTTP 400 .*max_tokens too large"):
        await openai(provider_server).complete(system="s", prompt="p", max_tokens=10)

    assert len(provider_server.requests) == 1


async def test_a_retry_after_longer_than_allowed_ends_the_call(provider_server: Any) -> None:
    provider_server.script({"status": 429, "body": {}, "headers": {"retry-after": "3600"}})

    with pytest.raises(LanguageModelError, match="retry after 3600 s"):
        await anthropic(provider_server).complete(system="s", prompt="p", max_tokens=10)

    assert len(provider_server.requests) == 1


async def test_x_should_retry_false_is_honoured(provider_server: Any) -> None:
    provider_server.script({"status": 500, "body": {}, "headers": {"x-should-retry": "false"}})

    with pytest.raises(LanguageModelError):
        await anthropic(provider_server).complete(system="s", prompt="p", max_tokens=10)

    assert len(provider_server.requests) == 1


@pytest.mark.parametrize(
    "reply",
    [
        {"raw": b"<html>gateway</html>"},
        {"body": {"choices": []}},
        {"body": {"type": "message"}},
    ],
)
async def test_malformed_answers_raise(provider_server: Any, reply: dict[str, Any]) -> None:
    provider_server.script(reply)

    with pytest.raises(LanguageModelError, match=r"not JSON|malformed"):
        await anthropic(provider_server).complete(system="s", prompt="p", max_tokens=10)
    with pytest.raises(LanguageModelError, match=r"not JSON|malformed"):
        await openai(provider_server).complete(system="s", prompt="p", max_tokens=10)


async def test_connection_refused_is_retried_then_reported() -> None:
    # Port 9 (discard) on loopback: nothing listens there in the test environment.
    model = OpenAICompatibleModel(model="m", base_url="http://127.0.0.1:9/v1", retry=FAST, timeout=1.0)

    with pytest.raises(LanguageModelError, match="connection failed") as caught:
        await model.complete(system="s", prompt="p", max_tokens=10)

    assert caught.value.attempts == 3


async def test_cancellation_stops_a_call_promptly(provider_server: Any) -> None:
    provider_server.script({"body": ANTHROPIC_OK, "delay": 10.0})
    task = asyncio.create_task(anthropic(provider_server).complete(system="s", prompt="p", max_tokens=10))
    await provider_server.requested()  # in flight: the provider holds it for 10 s

    started = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    # The scripted reply takes 10 s: ending before it means the call did not wait for the provider.
    assert time.monotonic() - started < 10.0


async def test_a_caller_owned_client_is_reused(provider_server: Any) -> None:
    provider_server.script({"body": OPENAI_OK})
    async with httpx.AsyncClient() as client:
        model = openai(provider_server, http_client=client)
        for _ in range(2):
            assert (await model.complete(system="s", prompt="p", max_tokens=5)).text == "Looks fine."
        assert not client.is_closed
    assert len(provider_server.requests) == 2


def test_reprs_and_constructor_checks_keep_keys_out() -> None:
    model = AnthropicModel(api_key=KEY)
    assert KEY not in repr(model)
    assert KEY not in repr(OpenAICompatibleModel(model="m", api_key=KEY))
    with pytest.raises(ValueError, match="credentials"):
        OpenAICompatibleModel(model="m", base_url=f"https://user:{KEY}@example.invalid/v1")
    with pytest.raises(ValueError, match="credentials") as caught:
        AnthropicModel(api_key="k", base_url=f"https://example.invalid/?key={KEY}")
    assert KEY not in str(caught.value)
