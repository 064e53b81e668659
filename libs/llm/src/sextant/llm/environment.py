"""Choose a language model from environment variables, or none.

- `LLM_PROVIDER`: `anthropic`, `openai` (alias `openai-compatible`) or `none`; unset: chosen by keys.
- `ANTHROPIC_API_KEY`: Anthropic key.
- `ANTHROPIC_MODEL`: Anthropic model; falls back to `LLM_MODEL`, then `claude-sonnet-4-5`.
- `ANTHROPIC_BASE_URL`: Anthropic API root without `/v1`; default `https://api.anthropic.com`.
- `LLM_API_KEY` (or `OPENAI_API_KEY`): Bearer key for an OpenAI-compatible endpoint; optional for
  local servers.
- `LLM_BASE_URL` (or `OPENAI_BASE_URL`): OpenAI-compatible root *including* `/v1`, e.g.
  `http://localhost:11434/v1` (Ollama); default `https://api.openai.com/v1`.
- `LLM_MODEL` (or `OPENAI_MODEL`): model name; required for any endpoint other than OpenAI's
  (default there: `gpt-4.1-mini`).
- `LLM_MAX_TOKENS_FIELD`: `max_tokens` (default) or `max_completion_tokens` (OpenAI reasoning models).
- `LLM_TIMEOUT_SECONDS`: deadline for one request; default 120.
- `LLM_MAX_ATTEMPTS`: requests per call at most, the first included; default 3.

Without `LLM_PROVIDER`: `ANTHROPIC_API_KEY` wins; otherwise `LLM_API_KEY`, `OPENAI_API_KEY` or
`LLM_BASE_URL` selects the OpenAI-compatible client (set `LLM_PROVIDER=none` when `OPENAI_API_KEY` is
there only for embeddings); otherwise there is no model (None) and callers write their
deterministic, model-free output. Empty values count as unset.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar, cast

from sextant.config import env_str
from sextant.llm.anthropic import DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_ANTHROPIC_MODEL, AnthropicModel
from sextant.llm.completion import LanguageModel, LanguageModelConfigError
from sextant.llm.http_retry import RetryPolicy
from sextant.llm.openai_compatible import (
    DEFAULT_OPENAI_BASE_URL,
    DEFAULT_OPENAI_MODEL,
    DEFAULT_TIMEOUT_SECONDS,
    MaxTokensField,
    OpenAICompatibleModel,
)

_Model = TypeVar("_Model", AnthropicModel, OpenAICompatibleModel)
_OPENAI_NAMES = frozenset({"openai", "openai-compatible", "openai_compatible"})


def _get(env: Mapping[str, str], *names: str) -> str | None:
    """The first non-blank value among `names`, stripped (keys pasted with a newline are common)."""
    for name in names:
        value = env_str(env, name)
        if value:
            return value
    return None


def _positive_number(env: Mapping[str, str], name: str, default: float) -> float:
    raw = _get(env, name)
    if raw is None:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise LanguageModelConfigError(f"{name} must be a number") from None
    if value <= 0:
        raise LanguageModelConfigError(f"{name} must be positive")
    return value


def _retry_policy(env: Mapping[str, str]) -> RetryPolicy:
    attempts = _positive_number(env, "LLM_MAX_ATTEMPTS", RetryPolicy().max_attempts)
    if attempts != int(attempts):
        raise LanguageModelConfigError("LLM_MAX_ATTEMPTS must be a whole number")
    return RetryPolicy(max_attempts=int(attempts))


def _anthropic(env: Mapping[str, str]) -> AnthropicModel:
    api_key = _get(env, "ANTHROPIC_API_KEY")
    if api_key is None:
        raise LanguageModelConfigError("LLM_PROVIDER=anthropic needs ANTHROPIC_API_KEY")
    model = _get(env, "ANTHROPIC_MODEL", "LLM_MODEL") or DEFAULT_ANTHROPIC_MODEL
    base_url = _get(env, "ANTHROPIC_BASE_URL") or DEFAULT_ANTHROPIC_BASE_URL
    return _client(
        env,
        "ANTHROPIC_BASE_URL",
        lambda timeout, retry: AnthropicModel(
            api_key=api_key, model=model, base_url=base_url, timeout=timeout, retry=retry
        ),
    )


def _openai_compatible(env: Mapping[str, str]) -> OpenAICompatibleModel:
    api_key = _get(env, "LLM_API_KEY", "OPENAI_API_KEY")
    base_url = _get(env, "LLM_BASE_URL", "OPENAI_BASE_URL") or DEFAULT_OPENAI_BASE_URL
    on_openai = base_url.rstrip("/") == DEFAULT_OPENAI_BASE_URL
    if on_openai and api_key is None:
        raise LanguageModelConfigError(
            "OpenAI's API needs LLM_API_KEY or OPENAI_API_KEY (or set LLM_BASE_URL to a local server)"
        )
    model = _get(env, "LLM_MODEL", "OPENAI_MODEL") or (DEFAULT_OPENAI_MODEL if on_openai else None)
    if model is None:
        raise LanguageModelConfigError("LLM_MODEL is required for an OpenAI-compatible endpoint other than OpenAI")
    field = _get(env, "LLM_MAX_TOKENS_FIELD") or "max_tokens"
    if field not in {"max_tokens", "max_completion_tokens"}:
        raise LanguageModelConfigError("LLM_MAX_TOKENS_FIELD must be max_tokens or max_completion_tokens")
    return _client(
        env,
        "LLM_BASE_URL",
        lambda timeout, retry: OpenAICompatibleModel(
            model=model,
            base_url=base_url,
            api_key=api_key,
            timeout=timeout,
            retry=retry,
            max_tokens_field=cast(MaxTokensField, field),
        ),
    )


def _client(env: Mapping[str, str], url_variable: str, build: Callable[[float, RetryPolicy], _Model]) -> _Model:
    """A model client with the transport settings every provider shares (LLM_TIMEOUT_SECONDS,
    LLM_MAX_ATTEMPTS); a base URL the client refuses is a configuration error naming `url_variable`."""
    timeout = _positive_number(env, "LLM_TIMEOUT_SECONDS", DEFAULT_TIMEOUT_SECONDS)
    retry = _retry_policy(env)
    try:
        return build(timeout, retry)
    except ValueError as exc:
        raise LanguageModelConfigError(f"{url_variable}: {exc}") from None


def model_from_env(env: Mapping[str, str]) -> LanguageModel | None:
    """Build the configured language model, or return None when none is configured.

    Args:
        env: Environment variables (pass `os.environ`; tests pass a dict). See the module docstring.

    Returns:
        An AnthropicModel, an OpenAICompatibleModel, or None.

    Raises:
        LanguageModelConfigError: when a provider is asked for but something it needs is missing or
            invalid (a misconfiguration should be loud, not silently "no model").
    """
    provider = (_get(env, "LLM_PROVIDER") or "").lower()
    if provider == "none":
        return None
    if provider == "anthropic":
        return _anthropic(env)
    if provider in _OPENAI_NAMES:
        return _openai_compatible(env)
    if provider:
        raise LanguageModelConfigError("LLM_PROVIDER must be anthropic, openai or none")
    if _get(env, "ANTHROPIC_API_KEY"):
        return _anthropic(env)
    if _get(env, "LLM_API_KEY", "OPENAI_API_KEY", "LLM_BASE_URL", "OPENAI_BASE_URL"):
        return _openai_compatible(env)
    return None
