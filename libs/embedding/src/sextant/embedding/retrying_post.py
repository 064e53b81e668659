"""POST JSON to a hosted embedding API with bounded retries: backoff + jitter, Retry-After honoured."""

from __future__ import annotations

import asyncio
import email.utils
import json
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from sextant.embedding.errors import EmbeddingError

_TRANSIENT_STATUSES = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 529})
"""Worth another try: timeouts, conflicts, rate limits, overloaded or failing servers."""
_AUTH_STATUSES = frozenset({401, 403})
_DETAIL_LIMIT = 200


@dataclass(frozen=True, kw_only=True)
class RetryPolicy:
    """How hard to try one request.

    Attributes:
        max_attempts: Attempts in all, the first included.
        base_delay: First backoff in seconds; doubles each attempt ("full jitter" draws from [0, it]).
        max_delay: Cap on one wait, Retry-After included: a longer Retry-After fails at once (transient).
        timeout: Seconds for one attempt (connect, write, read each).
    """

    max_attempts: int = 5
    base_delay: float = 0.5
    max_delay: float = 30.0
    timeout: float = 60.0

    def backoff(self, attempt: int) -> float:
        """Wait before the next attempt after `attempt` failures (1-based), full jitter.

        Args:
            attempt: How many attempts have failed so far.

        Returns:
            Seconds to wait.
        """
        ceiling = min(self.max_delay, self.base_delay * 2 ** (attempt - 1))
        return random.uniform(0, ceiling)  # noqa: S311 - jitter, not cryptography


@dataclass
class _Attempt:
    """Outcome of one failed try: the error to raise if no try is left, and how long to wait."""

    error: EmbeddingError
    retry_after: float | None = None


async def post_json_with_retries(
    client: httpx.AsyncClient,
    url: str,
    *,
    body: Mapping[str, Any],
    headers: Mapping[str, str],
    policy: RetryPolicy,
    provider: str,
    secret: str | None,
) -> tuple[Any, int]:
    """POST `body` as JSON and return the decoded answer, retrying what may pass on a second try.

    Args:
        client: The HTTP client (its timeouts are overridden by `policy.timeout`).
        url: Endpoint URL (never holds a secret).
        body: JSON request body.
        headers: Request headers, the auth header included.
        policy: Retry bounds.
        provider: Provider name for error messages.
        secret: The API key, scrubbed from any text that reaches an error message.

    Returns:
        The decoded JSON response and how many retries it took.

    Raises:
        EmbeddingError: Permanent failure at once, or the last transient one when attempts run out.
    """
    retries = 0
    while True:
        outcome = await _attempt(
            client, url, body=body, headers=headers, policy=policy, provider=provider, secret=secret
        )
        if not isinstance(outcome, _Attempt):
            return outcome, retries
        if not outcome.error.transient or retries + 1 >= policy.max_attempts:
            raise outcome.error
        if outcome.retry_after is not None and outcome.retry_after > policy.max_delay:
            raise EmbeddingError(f"{outcome.error.reason}; asked to wait {outcome.retry_after:.0f} s", transient=True)
        retries += 1
        wait = policy.backoff(retries) if outcome.retry_after is None else outcome.retry_after
        await asyncio.sleep(wait)


async def _attempt(
    client: httpx.AsyncClient,
    url: str,
    *,
    body: Mapping[str, Any],
    headers: Mapping[str, str],
    policy: RetryPolicy,
    provider: str,
    secret: str | None,
) -> Any | _Attempt:
    try:
        response = await client.post(url, json=body, headers=dict(headers), timeout=policy.timeout)
    except httpx.TimeoutException:
        return _Attempt(EmbeddingError(f"{provider}: request timed out after {policy.timeout:g} s", transient=True))
    except httpx.TransportError as exc:
        # Transport errors name the host and the OS error, never headers.
        return _Attempt(EmbeddingError(f"{provider}: network error ({type(exc).__name__})", transient=True))
    if 300 <= response.status_code < 400:
        # Not followed: the key would go to wherever the redirect points. The base URL needs fixing.
        return _Attempt(
            EmbeddingError(
                f"{provider}: HTTP {response.status_code} redirect; set EMBEDDINGS_BASE_URL to the final URL",
                transient=False,
            )
        )
    if response.status_code >= 400:
        return _Attempt(_status_error(response, provider, secret), _retry_after_seconds(response))
    try:
        return response.json()
    except ValueError:  # not JSON, or not even UTF-8 (UnicodeDecodeError): a garbled reply of this batch
        return _Attempt(EmbeddingError(f"{provider}: malformed response (not UTF-8 JSON)", transient=True))


def _status_error(response: httpx.Response, provider: str, secret: str | None) -> EmbeddingError:
    status = response.status_code
    if status in _AUTH_STATUSES:
        # Auth error bodies may echo part of the key: say what to check instead.
        return EmbeddingError(f"{provider}: HTTP {status}, authentication failed (check the API key)", transient=False)
    transient = status in _TRANSIENT_STATUSES or (status >= 500 and status != 501)
    detail = _error_detail(response, secret)
    suffix = f": {detail}" if detail else ""
    return EmbeddingError(f"{provider}: HTTP {status}{suffix}", transient=transient)


def _error_detail(response: httpx.Response, secret: str | None) -> str:
    """The provider's own message (OpenAI `error.message`, Cohere `message`, Ollama `error`), scrubbed."""
    try:
        payload = response.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        text = response.text
    else:
        text = _message_of(payload)
    if secret:
        text = text.replace(secret, "***")
    text = " ".join(text.split())
    return text[:_DETAIL_LIMIT]


def _message_of(payload: Any) -> str:
    if isinstance(payload, dict):
        for key in ("error", "message", "detail"):
            value = payload.get(key)
            if isinstance(value, dict):
                return _message_of(value)
            if isinstance(value, str):
                return value
    return ""


def _retry_after_seconds(response: httpx.Response) -> float | None:
    """Retry-After as seconds: a number, or an HTTP date (RFC 9110 §10.2.3)."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - time.time())
