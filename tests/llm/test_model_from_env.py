"""Choosing a language model from environment variables."""

from __future__ import annotations

from typing import Any

import pytest

from sextant.llm import (
    AnthropicModel,
    LanguageModelConfigError,
    OpenAICompatibleModel,
    model_from_env,
)

KEY = "sk-ant-env-secret-0123456789"


def test_nothing_configured_means_no_model() -> None:
    assert model_from_env({}) is None
    assert model_from_env({"ANTHROPIC_API_KEY": "  ", "OPENAI_API_KEY": ""}) is None


def test_anthropic_key_selects_anthropic_with_overrides() -> None:
    model = model_from_env(
        {
            "ANTHROPIC_API_KEY": f"{KEY}\n",
            "ANTHROPIC_MODEL": "claude-opus-4-1",
            "ANTHROPIC_BASE_URL": "https://gateway.example/anthropic/",
            "OPENAI_API_KEY": "sk-other",
        }
    )
    assert isinstance(model, AnthropicModel)
    assert (model.provider, model.model) == ("anthropic", "claude-opus-4-1")
    assert KEY not in repr(model)
    assert "gateway.example/anthropic'" in repr(model)


def test_anthropic_default_model_and_llm_model_fallback() -> None:
    assert model_from_env({"ANTHROPIC_API_KEY": KEY}).model == "claude-sonnet-4-5"  # type: ignore[union-attr]
    chosen = model_from_env({"ANTHROPIC_API_KEY": KEY, "LLM_MODEL": "claude-haiku-4-5"})
    assert chosen is not None
    assert chosen.model == "claude-haiku-4-5"


def test_openai_key_selects_openai_with_its_default_model() -> None:
    model = model_from_env({"OPENAI_API_KEY": "sk-openai"})
    assert isinstance(model, OpenAICompatibleModel)
    assert model.model == "gpt-4.1-mini"
    assert "api.openai.com/v1" in repr(model)


def test_llm_api_key_is_the_generic_bearer_key() -> None:
    model = model_from_env({"LLM_API_KEY": "sk-generic", "OPENAI_API_KEY": "sk-embeddings-only"})
    assert isinstance(model, OpenAICompatibleModel)
    assert model_from_env({"OPENAI_API_KEY": "sk-embeddings-only", "LLM_PROVIDER": "none"}) is None


async def test_llm_api_key_is_sent_as_bearer(provider_server: Any) -> None:
    provider_server.script({"body": {"choices": [{"message": {"content": "hi"}}]}})
    env = {"LLM_API_KEY": "sk-generic", "OPENAI_API_KEY": "sk-other", "LLM_MODEL": "m"}
    model = model_from_env({**env, "LLM_BASE_URL": f"{provider_server.url}/v1"})
    assert model is not None
    assert (await model.complete(system="s", prompt="p", max_tokens=1)).text == "hi"
    assert provider_server.requests[0].headers["authorization"] == "Bearer sk-generic"


def test_local_server_needs_no_key_but_needs_a_model() -> None:
    model = model_from_env({"LLM_BASE_URL": "http://localhost:11434/v1", "LLM_MODEL": "qwen2.5-coder:7b"})
    assert isinstance(model, OpenAICompatibleModel)
    assert (model.provider, model.model) == ("openai-compatible", "qwen2.5-coder:7b")
    with pytest.raises(LanguageModelConfigError, match="LLM_MODEL is required"):
        model_from_env({"LLM_BASE_URL": "http://localhost:11434/v1"})


def test_explicit_provider_wins_and_none_disables() -> None:
    both = {"ANTHROPIC_API_KEY": KEY, "OPENAI_API_KEY": "sk-openai"}
    assert isinstance(model_from_env({**both, "LLM_PROVIDER": "openai"}), OpenAICompatibleModel)
    assert isinstance(model_from_env({**both, "LLM_PROVIDER": "Anthropic"}), AnthropicModel)
    assert model_from_env({**both, "LLM_PROVIDER": "none"}) is None


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"LLM_PROVIDER": "anthropic"}, "needs ANTHROPIC_API_KEY"),
        ({"LLM_PROVIDER": "openai"}, "needs LLM_API_KEY or OPENAI_API_KEY"),
        ({"LLM_PROVIDER": "gemini"}, "LLM_PROVIDER must be"),
        ({"ANTHROPIC_API_KEY": KEY, "LLM_TIMEOUT_SECONDS": "soon"}, "LLM_TIMEOUT_SECONDS must be a number"),
        ({"ANTHROPIC_API_KEY": KEY, "LLM_TIMEOUT_SECONDS": "0"}, "LLM_TIMEOUT_SECONDS must be positive"),
        ({"ANTHROPIC_API_KEY": KEY, "LLM_MAX_ATTEMPTS": "2.5"}, "whole number"),
        ({"ANTHROPIC_API_KEY": KEY, "ANTHROPIC_BASE_URL": "ftp://x"}, "ANTHROPIC_BASE_URL"),
        ({"OPENAI_API_KEY": "k", "LLM_MAX_TOKENS_FIELD": "tokens"}, "LLM_MAX_TOKENS_FIELD"),
    ],
)
def test_misconfiguration_is_loud_and_key_free(env: dict[str, str], message: str) -> None:
    with pytest.raises(LanguageModelConfigError, match=message) as caught:
        model_from_env(env)
    assert KEY not in str(caught.value)


async def test_env_built_models_call_the_configured_endpoint(provider_server: Any) -> None:
    provider_server.script(
        {"body": {"content": [{"type": "text", "text": "ok"}], "model": "m", "usage": {}}},
    )
    model = model_from_env(
        {"ANTHROPIC_API_KEY": KEY, "ANTHROPIC_BASE_URL": provider_server.url, "LLM_TIMEOUT_SECONDS": "5"}
    )
    assert model is not None
    completion = await model.complete(system="s", prompt="p", max_tokens=1)
    assert completion.text == "ok"
    assert provider_server.requests[0].headers["x-api-key"] == KEY
