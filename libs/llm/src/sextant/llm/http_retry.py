"""POST a JSON request to a hosted model API with a deadline and bounded, jittered retries.

Shared by the language-model clients and the Cohere reranker so that every provider call in Sextant
retries the same way: 408/409/429/5xx/529 and timeouts are retried with exponential backoff and
jitter, a server's `retry-after` is honoured, other 4xx are not retried, and no error text ever
carries a key.
"""

from __future__ import annotations

import asyncio
import email.utils
import logging
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

logger = logging.getLogger(__name__)

# 408 request timeout, 409 conflict (Anthropic marks it retryable), 429 rate limited; any 5xx,
# including Anthropic's 529 "overloaded", is treated as transient.
_RETRYABLE_CLIENT_STATUSES = frozenset({408, 409, 429})
_REASON_LIMIT = 300


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how patiently a provider call is retried."""

    max_attempts: int = 3
    """Requests sent at most, the first one included."""
    base_delay: float = 0.5
    """Backoff before the second attempt, in seconds; doubles each time."""
    max_delay: float = 8.0
    """Cap on one computed backoff, in seconds."""
    max_retry_after: float = 60.0
    """Longest server-requested wait we honour; a longer `retry-after` ends the call instead."""

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if self.base_delay < 0 or self.max_delay < 0 or self.max_retry_after < 0:
            raise ValueError("delays must not be negative")

    def backoff(self, attempt: int, rng: random.Random) -> float:
        """Seconds to wait after failed attempt number `attempt` (1-based), with equal jitter.

        Args:
            attempt: The attempt that just failed, counting from 1.
            rng: Source of jitter (injectable for tests).

        Returns:
            A delay in [cap/2, cap] where cap = min(max_delay, base_delay * 2**(attempt-1)).
        """
        cap = min(self.max_delay, self.base_delay * 2 ** (attempt - 1))
        # Equal jitter keeps a floor under the wait while still spreading clients apart.
        return float(cap / 2 + rng.random() * cap / 2)


class ProviderCallError(Exception):
    """A provider call that failed for good; the message is redacted and safe to log."""

    def __init__(self, provider: str, reason: str, *, status: int | None, attempts: int) -> None:
        super().__init__(f"{provider}: {reason}")
        self.provider = provider
        self.reason = reason
        self.status = status
        self.attempts = attempts


def redact(text: str, secrets: Sequence[str]) -> str:
    """Replace every occurrence of each secret in `text` with "[redacted]".

    Args:
        text: Text that may echo a credential (providers sometimes quote the key they rejected).
        secrets: The credentials to hide; empty strings are ignored.

    Returns:
        The text with each secret replaced.
    """
    for secret in secrets:
        if secret:
            text = text.replace(secret, "[redacted]")
    return text


def _error_detail(response: httpx.Response) -> str:
    """Pull the provider's own error message out of a JSON error body, if there is one."""
    try:
        body = response.json()
    except ValueError:
        return ""
    if not isinstance(body, dict):
        return ""
    error = body.get("error")
    if isinstance(error, dict):
        parts = [str(error[key]) for key in ("type", "message") if error.get(key)]
        return ": ".join(parts)
    for key in ("error", "message", "detail"):
        if isinstance(body.get(key), str):
            return str(body[key])
    return ""


def _describe_status(response: httpx.Response, secrets: Sequence[str]) -> str:
    detail = " ".join(_error_detail(response).split())[:_REASON_LIMIT]
    reason = f"HTTP {response.status_code}" + (f" ({detail})" if detail else "")
    return redact(reason, secrets)


def _server_requested_delay(response: httpx.Response) -> float | None:
    """Seconds the server asked us to wait (`retry-after-ms` or `retry-after`), if it said."""
    retry_after_ms = response.headers.get("retry-after-ms")
    if retry_after_ms:
        try:
            return max(0.0, float(retry_after_ms) / 1000)
        except ValueError:
            pass
    retry_after = response.headers.get("retry-after")
    if not retry_after:
        return None
    try:
        return max(0.0, float(retry_after))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(retry_after)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _should_retry_status(response: httpx.Response) -> bool:
    # Anthropic and OpenAI send x-should-retry to override the status-based guess; honour it.
    hint = response.headers.get("x-should-retry")
    if hint == "true":
        return True
    if hint == "false":
        return False
    status = response.status_code
    return status in _RETRYABLE_CLIENT_STATUSES or status >= 500


async def _send_once(
    client: httpx.AsyncClient | None,
    url: str,
    headers: Mapping[str, str],
    body: Mapping[str, Any],
    attempt_timeout: float,
) -> httpx.Response:
    # httpx's timeout bounds each read; asyncio.timeout bounds the whole exchange, so a server that
    # trickles bytes cannot hold us past the deadline. Outer cancellation still propagates as usual.
    async with asyncio.timeout(attempt_timeout):
        if client is not None:
            return await client.post(url, headers=dict(headers), json=body, timeout=attempt_timeout)
        async with httpx.AsyncClient(timeout=attempt_timeout) as own_client:
            return await own_client.post(url, headers=dict(headers), json=body)


async def post_json(
    *,
    provider: str,
    url: str,
    headers: Mapping[str, str],
    body: Mapping[str, Any],
    attempt_timeout: float,
    policy: RetryPolicy,
    secrets: Sequence[str] = (),
    client: httpx.AsyncClient | None = None,
    rng: random.Random | None = None,
) -> Any:
    """POST `body` as JSON and return the decoded JSON of a 2xx answer, retrying transient failures.

    Args:
        provider: Name used in log lines and errors.
        url: Endpoint; never carries a credential.
        headers: Request headers (credentials go here).
        body: JSON-serialisable request body.
        attempt_timeout: Deadline for one attempt, in seconds (connect to last byte).
        policy: Retry bounds and backoff.
        secrets: Values to scrub from any error text.
        client: A caller-owned client for connection reuse; by default each attempt opens its own.
        rng: Jitter source (tests pass a seeded one).

    Returns:
        The decoded JSON document.

    Raises:
        ProviderCallError: on a non-retryable answer, a malformed body, or when retries run out.
    """
    jitter = rng or random.Random()  # noqa: S311 - jitter, not cryptography
    status: int | None = None
    reason = ""
    for attempt in range(1, policy.max_attempts + 1):
        status = None
        try:
            response = await _send_once(client, url, headers, body, attempt_timeout)
        except (httpx.TimeoutException, TimeoutError):
            reason, delay = f"timed out after {attempt_timeout:g} s", policy.backoff(attempt, jitter)
        except httpx.UnsupportedProtocol:
            raise ProviderCallError(provider, "unsupported URL scheme", status=None, attempts=attempt) from None
        except httpx.TransportError as exc:
            reason, delay = f"connection failed ({type(exc).__name__})", policy.backoff(attempt, jitter)
        else:
            status = response.status_code
            if response.is_success:
                try:
                    return response.json()
                except ValueError:
                    raise ProviderCallError(
                        provider,
                        f"HTTP {status} with a body that is not JSON",
                        status=status,
                        attempts=attempt,
                    ) from None
            reason = _describe_status(response, secrets)
            if not _should_retry_status(response):
                raise ProviderCallError(provider, reason, status=status, attempts=attempt)
            requested = _server_requested_delay(response)
            if requested is not None and requested > policy.max_retry_after:
                raise ProviderCallError(
                    provider,
                    f"{reason}; server asked to retry after {requested:.0f} s",
                    status=status,
                    attempts=attempt,
                )
            delay = requested if requested is not None else policy.backoff(attempt, jitter)
        if attempt == policy.max_attempts:
            break
        logger.warning(
            "%s call failed (%s); retry %d of %d in %.2f s",
            provider,
            reason,
            attempt,
            policy.max_attempts - 1,
            delay,
        )
        await asyncio.sleep(delay)
    raise ProviderCallError(
        provider,
        f"{reason}; gave up after {policy.max_attempts} attempts",
        status=status,
        attempts=policy.max_attempts,
    )
