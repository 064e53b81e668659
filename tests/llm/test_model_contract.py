"""One contract every LanguageModel keeps, run against each client and a local server speaking its wire format."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest

from sextant.llm import AnthropicModel, LanguageModel, LanguageModelError, OpenAICompatibleModel, RetryPolicy

from ..support.provider_server import ProviderServer, Reply
from ..support.wire_formats import anthropic_echo, echo_text, openai_echo

KEY = "sk-contract-0123456789abcdef-secret"
ATTEMPTS = 3
POLICY = RetryPolicy(max_attempts=ATTEMPTS, base_delay=0.01, max_delay=0.05)


@dataclass
class Subject:
    """A model client wired to a local server that answers in that client's wire format."""

    model: LanguageModel
    server: ProviderServer


def _anthropic(url: str) -> LanguageModel:
    return AnthropicModel(api_key=KEY, model="claude-contract", base_url=url, retry=POLICY)


def _openai(url: str) -> LanguageModel:
    return OpenAICompatibleModel(model="gpt-contract", base_url=f"{url}/v1", api_key=KEY, retry=POLICY)


_CLIENTS: dict[str, tuple[Callable[[str], LanguageModel], Callable[..., object]]] = {
    "anthropic": (_anthropic, anthropic_echo),
    "openai-compatible": (_openai, openai_echo),
}


@pytest.fixture(params=sorted(_CLIENTS))
def subject(request: pytest.FixtureRequest) -> Iterator[Subject]:
    build, answer = _CLIENTS[request.param]
    with ProviderServer(answer=answer) as server:
        yield Subject(build(server.url), server)


async def test_system_and_user_prompts_reach_the_model_and_its_text_comes_back(subject: Subject) -> None:
    completion = await subject.model.complete(system="You review code.", prompt="Is this safe?", max_tokens=50)

    assert completion.text == echo_text("You review code.", "Is this safe?")
    assert completion.provider == subject.model.provider
    assert completion.model == subject.model.model
    assert completion.input_tokens == 6
    assert completion.output_tokens == 3
    assert completion.stop_reason is not None
    assert len(subject.server.requests) == 1


async def test_the_output_cap_is_sent(subject: Subject) -> None:
    completion = await subject.model.complete(system="s", prompt="p", max_tokens=2)

    assert completion.output_tokens == 2  # the echo server spends at most the cap it received


async def test_a_cap_below_one_is_refused_before_any_request(subject: Subject) -> None:
    with pytest.raises(ValueError, match="max_tokens"):
        await subject.model.complete(system="s", prompt="p", max_tokens=0)
    assert subject.server.requests == []


async def test_a_transient_failure_is_retried_then_answered(subject: Subject) -> None:
    subject.server.script(Reply(status=503, body={"error": {"message": "overloaded"}}))

    completion = await subject.model.complete(system="s", prompt="p", max_tokens=10)

    assert completion.text == echo_text("s", "p")
    assert len(subject.server.requests) == 2


async def test_persistent_failure_raises_after_the_bounded_attempts_without_the_key(subject: Subject) -> None:
    subject.server.script(*[Reply(status=500, body={"error": {"message": f"bad key {KEY}"}})] * ATTEMPTS)

    with pytest.raises(LanguageModelError) as caught:
        await subject.model.complete(system="s", prompt="p", max_tokens=10)

    assert caught.value.attempts == ATTEMPTS
    assert caught.value.status == 500
    assert caught.value.provider == subject.model.provider
    assert KEY not in str(caught.value)
    assert len(subject.server.requests) == ATTEMPTS


async def test_a_rejected_key_is_not_retried(subject: Subject) -> None:
    subject.server.script(Reply(status=401, body={"error": {"message": "invalid key"}}))

    with pytest.raises(LanguageModelError) as caught:
        await subject.model.complete(system="s", prompt="p", max_tokens=10)

    assert (caught.value.status, caught.value.attempts) == (401, 1)
    assert len(subject.server.requests) == 1


async def test_a_malformed_answer_is_an_error(subject: Subject) -> None:
    subject.server.script(Reply(body={"unexpected": True}))

    with pytest.raises(LanguageModelError, match="malformed"):
        await subject.model.complete(system="s", prompt="p", max_tokens=10)


def test_the_key_is_never_in_the_repr(subject: Subject) -> None:
    assert KEY not in repr(subject.model)
    assert subject.model.model in repr(subject.model)
