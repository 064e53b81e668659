"""Anthropic's Messages API as a LanguageModel."""

from __future__ import annotations

from typing import Any

import httpx

from sextant.llm.completion import Completion, LanguageModelError
from sextant.llm.endpoint import ProviderEndpoint
from sextant.llm.http_retry import RetryPolicy
from sextant.llm.usage import token_count

DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com"
DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5"
ANTHROPIC_VERSION = "2023-06-01"
DEFAULT_TIMEOUT_SECONDS = 120.0


class AnthropicModel:
    """Calls POST {base_url}/v1/messages with an `x-api-key` header."""

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
        self.provider = "anthropic"
        self.model = model
        self._api_key = api_key
        self._endpoint = ProviderEndpoint(
            provider=self.provider,
            base_url=base_url,
            timeout=timeout,
            retry=retry or RetryPolicy(),
            secrets=(api_key,),
            http_client=http_client,
        )
        self._temperature = temperature

    def __repr__(self) -> str:
        return f"AnthropicModel(model={self.model!r}, base_url={self._endpoint.base_url!r})"

    async def complete(self, *, system: str, prompt: str, max_tokens: int) -> Completion:
        """Send one Messages request and return its text and usage.

        Args:
            system: System prompt.
            prompt: The user message.
            max_tokens: Output token cap.

        Returns:
            The completion.

        Raises:
            LanguageModelError: when the call fails after bounded retries or the answer is malformed.
        """
        if max_tokens < 1:
            raise ValueError("max_tokens must be positive")
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": max_tokens,
            "system": system,
            "messages": [{"role": "user", "content": prompt}],
        }
        if self._temperature is not None:
            body["temperature"] = self._temperature
        headers = {"x-api-key": self._api_key, "anthropic-version": ANTHROPIC_VERSION}
        return self._parse(await self._endpoint.complete("/v1/messages", body, headers))

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
