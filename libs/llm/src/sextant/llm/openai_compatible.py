"""Any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, vLLM, LM Studio, ...)."""

from __future__ import annotations

import re
from typing import Any, Literal

import httpx

from sextant.llm.chat_model import HostedChatModel
from sextant.llm.completion import Completion, LanguageModelError
from sextant.llm.http_retry import RetryPolicy
from sextant.llm.usage import token_count

DEFAULT_OPENAI_BASE_URL = "https://api.openai.com/v1"
DEFAULT_OPENAI_MODEL = "gpt-4.1-mini"
DEFAULT_TIMEOUT_SECONDS = 120.0

MaxTokensField = Literal["max_tokens", "max_completion_tokens"]

# Local reasoning models (served by Ollama, vLLM, ...) often put their chain of thought inline.
_LEADING_THINK_BLOCK = re.compile(r"\A\s*<think>.*?</think>\s*", re.DOTALL)


class OpenAICompatibleModel(HostedChatModel):
    """Calls POST {base_url}/chat/completions; the base URL includes the version, as in OpenAI's SDK.

    The system prompt goes as the first, "system" message; a leading `<think>…</think>` block is removed
    from the answer's text.

    Examples of base URLs: `https://api.openai.com/v1`, `http://localhost:11434/v1` (Ollama),
    `http://localhost:8000/v1` (vLLM), `http://localhost:1234/v1` (LM Studio).
    """

    path = "/chat/completions"

    def __init__(
        self,
        *,
        model: str,
        base_url: str = DEFAULT_OPENAI_BASE_URL,
        api_key: str | None = None,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        retry: RetryPolicy | None = None,
        temperature: float | None = None,
        max_tokens_field: MaxTokensField = "max_tokens",
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        """Configure the client; nothing is sent until `complete`.

        Args:
            model: Model name as the server knows it.
            base_url: API root including the version segment (e.g. ending in `/v1`).
            api_key: Bearer token; None or empty sends no Authorization header (local servers).
            timeout: Deadline for one request, in seconds.
            retry: Retry bounds; the default policy when None.
            temperature: Sampling temperature; the server's default when None.
            max_tokens_field: "max_tokens" (widely supported) or "max_completion_tokens" (required by
                OpenAI's reasoning models).
            http_client: A caller-owned client to reuse connections; each call opens its own when None.
        """
        if not model:
            raise ValueError("model is required")
        super().__init__(
            "openai-compatible", model, base_url, timeout=timeout, retry=retry, secrets=(api_key,) if api_key else (),
            temperature=temperature, http_client=http_client,
        )  # fmt: skip
        self._api_key = api_key or None
        self._max_tokens_field = max_tokens_field

    def _body(self, system: str, prompt: str, max_tokens: int) -> dict[str, Any]:
        return {
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": prompt}],
            self._max_tokens_field: max_tokens,
        }

    def _headers(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self._api_key}"} if self._api_key else {}

    def _parse(self, answer: Any) -> Completion:
        choices = answer.get("choices") if isinstance(answer, dict) else None
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise LanguageModelError(self.provider, "malformed response: no choices")
        message = choices[0].get("message")
        if not isinstance(message, dict):
            raise LanguageModelError(self.provider, "malformed response: no message")
        usage = answer.get("usage")
        finish_reason = choices[0].get("finish_reason")
        return Completion(
            text=_LEADING_THINK_BLOCK.sub("", _message_text(message.get("content"))),
            model=str(answer.get("model") or self.model),
            provider=self.provider,
            input_tokens=token_count(usage, "prompt_tokens"),
            output_tokens=token_count(usage, "completion_tokens"),
            stop_reason=str(finish_reason) if finish_reason is not None else None,
        )


def _message_text(content: Any) -> str:
    # Content is a string on most servers, null when the output budget went to reasoning, and a
    # list of typed parts on a few.
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") in {"text", "output_text"}
        )
    return ""
