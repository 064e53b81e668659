"""A provider endpoint: its URL as we show it (never with credentials in it) and the one way we call it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import httpx

from sextant.llm.completion import LanguageModelError
from sextant.llm.http_retry import ProviderCallError, RetryPolicy
from sextant.provider_http import post_json


def normalise_base_url(base_url: str) -> str:
    """Check a provider base URL and drop a trailing slash.

    Args:
        base_url: An http(s) URL without credentials, query or fragment.

    Returns:
        The URL without its trailing slash.

    Raises:
        ValueError: when the URL is not http(s), or carries credentials, a query or a fragment
            (keys belong in headers: URLs end up in logs).
    """
    url = httpx.URL(base_url)
    if url.scheme not in {"http", "https"} or not url.host:
        raise ValueError("base URL must be an absolute http(s) URL")
    if url.userinfo or url.query or url.fragment:
        raise ValueError("base URL must not carry credentials, a query or a fragment")
    return base_url.rstrip("/")


JSON_HEADERS: Mapping[str, str] = {"content-type": "application/json", "accept": "application/json"}
"""Headers every provider call sends: a JSON body out, a JSON answer back."""


class ProviderEndpoint:
    """One hosted provider's API root and how calls to it behave: deadline, retries, what to redact.

    The language-model clients and the hosted reranker differ only in the body they send and how they
    read the answer; the transport around that is this one object.
    """

    def __init__(
        self,
        *,
        provider: str,
        base_url: str,
        timeout: float,
        retry: RetryPolicy,
        secrets: Sequence[str] = (),
        http_client: httpx.AsyncClient | None = None,
    ) -> None:
        """Check and keep the settings; nothing is sent until `post`.

        Args:
            provider: Name used in log lines and errors.
            base_url: API root (see `normalise_base_url`).
            timeout: Deadline for one request, in seconds.
            retry: Retry bounds.
            secrets: Values redacted from every error and log line (the API key).
            http_client: A caller-owned client to reuse connections; each call opens its own when None.

        Raises:
            ValueError: when the timeout is not positive or the base URL is not acceptable.
        """
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        self.provider = provider
        self.base_url = normalise_base_url(base_url)
        self.timeout = timeout
        self.retry = retry
        self._secrets = tuple(secrets)
        self._http_client = http_client

    async def post(self, path: str, body: Mapping[str, Any], headers: Mapping[str, str]) -> Any:
        """POST a JSON body below the root and return the decoded answer, retrying transient failures.

        Args:
            path: Path below the base URL, starting with "/".
            body: The request body.
            headers: Provider-specific headers (credentials); the JSON headers are added.

        Returns:
            The decoded JSON of a 2xx answer.

        Raises:
            ProviderCallError: when the call fails for good.
        """
        result = await post_json(
            provider=self.provider,
            url=f"{self.base_url}{path}",
            headers={**JSON_HEADERS, **headers},
            body=body,
            policy=self.retry,
            secrets=self._secrets,
            client=self._http_client,
            attempt_timeout=self.timeout,
        )
        return result.answer

    async def complete(self, path: str, body: Mapping[str, Any], headers: Mapping[str, str]) -> Any:
        """`post` for a language model: a failure becomes the port's `LanguageModelError`.

        Args:
            path: Path below the base URL.
            body: The request body.
            headers: Provider-specific headers.

        Returns:
            The decoded JSON answer.

        Raises:
            LanguageModelError: when the call fails after bounded retries.
        """
        try:
            return await self.post(path, body, headers)
        except ProviderCallError as exc:
            raise LanguageModelError(self.provider, exc.reason, status=exc.status, attempts=exc.attempts) from None
