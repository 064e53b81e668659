"""Anthropic's Messages API as a LanguageModel."""

from __future__ import annotations

from typing import Any

import httpx

from sextant.llm.chat_model import HostedChatModel
from sextant.llm.completion import Completion, LanguageModelError
from sextant.llm.http_retry import RetryPolicy
from sextant.llm.usage import token_count

DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com"
DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5"
ANTHROPIC_VERSION = "2023-06-01"
DEFAULT_TIMEOUT_SECONDS = 120.0


class AnthropicModel(HostedChatModel):
    """Calls POST {base_url}/v1/messages with an `x-api-key` header."""

    path = "/v1/messages"

    def __init__(
        self,
        *,
        api_key: str,
        model: str = DEFAULT_ANTHROPIC_MODEL,
        base_url: str = DEFAULT_ANTHROPIC_BASE_URL,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        retry: RetryPolicy | None = None,
        temperature: float | None = None,
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        """Configure the client; nothing is sent until `complete`.

        Args:
            api_key: Anthropic API key (sent only in the `x-api-key` header).
            model: Model name or alias.
            base_url: API root without `/v1` (a proxy or gateway may stand here).
            timeout: Deadline for one request, in seconds.
            retry: Retry bounds; the default policy when None.
            temperature: Sampling temperature; the provider's default when None.
            http_client: A caller-owned client to reuse connections; each call opens its own when None.
        """
        if not api_key:
            raise ValueError("api_key is required")
        super().__init__(
            "anthropic", model, base_url, timeout=timeout, retry=retry, secrets=(api_key,), temperature=temperature,
            http_client=http_client,
        )  # fmt: skip
        self._api_key = api_key

    def _body(self, system: str, prompt: str, max_tokens: int) -> dict[str, Any]:
        return {
            "model": self.model,
            "max_tokens": max_tokens,
            "system": system,
            "messages": [{"role": "user", "content": prompt}],
        }

    def _headers(self) -> dict[str, str]:
        return {"x-api-key": self._api_key, "anthropic-version": ANTHROPIC_VERSION}

    def _parse(self, answer: Any) -> Completion:
        if not isinstance(answer, dict) or not isinstance(answer.get("content"), list):
            raise LanguageModelError(self.provider, "malformed response: no content list")
        # Only text blocks are the answer; thinking and tool blocks are not part of the report.
        text = "".join(
            str(block.get("text", ""))
            for block in answer["content"]
            if isinstance(block, dict) and block.get("type") == "text"
        )
        usage = answer.get("usage") if isinstance(answer.get("usage"), dict) else {}
        input_tokens = sum(
            token_count(usage, key)
            for key in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")
        )
        stop_reason = answer.get("stop_reason")
        return Completion(
            text=text,
            model=str(answer.get("model") or self.model),
            provider=self.provider,
            input_tokens=input_tokens,
            output_tokens=token_count(usage, "output_tokens"),
            stop_reason=str(stop_reason) if stop_reason is not None else None,
        )
