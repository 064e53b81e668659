"""What the hosted chat models share: one endpoint, the model's name, a sampling temperature, and the
call itself (check the output budget, build the provider's body, send it with bounded retries, parse)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import httpx

from sextant.llm.completion import Completion
from sextant.llm.endpoint import ProviderEndpoint
from sextant.llm.http_retry import RetryPolicy


class HostedChatModel(ABC):
    """A LanguageModel over one provider's HTTP API; a subclass says the path, body, headers and parse."""

    path: str
    """Appended to the base URL for each completion."""

    def __init__(
        self, provider: str, model: str, base_url: str, *, timeout: float, retry: RetryPolicy | None,
        secrets: Sequence[str], temperature: float | None, http_client: httpx.AsyncClient | None,
    ) -> None:  # fmt: skip
        self.provider = provider
        self.model = model
        self._endpoint = ProviderEndpoint(
            provider=provider, base_url=base_url, timeout=timeout, retry=retry or RetryPolicy(), secrets=secrets,
            http_client=http_client,
        )  # fmt: skip
        self._temperature = temperature

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r}, base_url={self._endpoint.base_url!r})"

    async def complete(self, *, system: str, prompt: str, max_tokens: int) -> Completion:
        """Send one request and return its text and usage.

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
        body = self._body(system, prompt, max_tokens)
        if self._temperature is not None:
            body["temperature"] = self._temperature
        return self._parse(await self._endpoint.complete(self.path, body, self._headers()))

    @abstractmethod
    def _body(self, system: str, prompt: str, max_tokens: int) -> dict[str, Any]:
        """The request body in the provider's wire format (without the temperature)."""

    @abstractmethod
    def _headers(self) -> dict[str, str]:
        """The request's headers (the API key travels only here)."""

    @abstractmethod
    def _parse(self, answer: Any) -> Completion:
        """The completion in a decoded answer; ``LanguageModelError`` when it is not the documented shape."""
