"""POST JSON to a hosted model API, retrying what may pass on a later try (stamina does the waiting).

Retried: timeouts, network errors, 408/409/425/429 and 5xx (not 501/505) unless the provider's
``x-should-retry`` says otherwise, and a 2xx body that is not UTF-8 JSON (a garbled reply). A server's
``retry-after`` is honoured up to ``max_retry_after``; beyond it the call ends at once. Redirects are
never followed (the key would go wherever they point). Every reason is scrubbed of the secrets.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import httpx
import stamina

from sextant.provider_http.describe import describe_status
from sextant.provider_http.errors import ProviderHTTPError
from sextant.provider_http.policy import RetryPolicy
from sextant.provider_http.statuses import is_retryable_status, server_requested_delay

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Call:
    """One provider call: what every attempt sends, and its bounds."""

    provider: str
    url: str
    headers: Mapping[str, str]
    body: Mapping[str, Any]
    policy: RetryPolicy
    secrets: Sequence[str]
    client: httpx.AsyncClient | None
    deadline: float


@dataclass(frozen=True)
class PostResult:
    """A decoded 2xx answer and how many retries it took."""

    answer: Any
    retries: int


class _RetryableFailureError(Exception):
    """One failed attempt worth another try; ``wait`` is the server's requested delay, if any."""

    def __init__(self, reason: str, status: int | None, wait: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status
        self.wait = wait


def _backoff_hook(call: _Call) -> Callable[[Exception], bool | float]:
    """stamina's hook for one call: retry only our retryable failures (after the server's wait when it
    named one), and say so in the log."""
    failures = 0

    def hook(error: Exception) -> bool | float:
        nonlocal failures
        if not isinstance(error, _RetryableFailureError):
            return False
        failures += 1
        if failures < call.policy.max_attempts:
            retries = call.policy.max_attempts - 1
            logger.warning("%s call failed (%s); retry %d of %d", call.provider, error.reason, failures, retries)
        return True if error.wait is None else error.wait

    return hook


async def post_json(
    *,
    provider: str,
    url: str,
    headers: Mapping[str, str],
    body: Mapping[str, Any],
    policy: RetryPolicy,
    secrets: Sequence[str] = (),
    client: httpx.AsyncClient | None = None,
    attempt_timeout: float | None = None,
) -> PostResult:
    """POST ``body`` as JSON and return the decoded JSON of a 2xx answer, retrying transient failures.

    Args:
        provider: Name used in log lines and errors.
        url: Endpoint; never carries a credential.
        headers: Request headers (credentials go here).
        body: JSON-serialisable request body.
        policy: Attempts and waits.
        secrets: Values scrubbed from any error text.
        client: A caller-owned client for connection reuse; by default each attempt opens its own.
        attempt_timeout: Deadline of one attempt in seconds (default ``policy.timeout``).

    Returns:
        The answer and the retries it took.

    Raises:
        ProviderHTTPError: A permanent failure at once, or the last transient one when attempts run out.
    """
    deadline = attempt_timeout if attempt_timeout is not None else policy.timeout
    call = _Call(provider, url, headers, body, policy, secrets, client, deadline)
    attempts = 0
    try:
        async for attempt in stamina.retry_context(
            on=_backoff_hook(call),
            attempts=policy.max_attempts,
            timeout=None,  # bounded by attempts x (deadline + max wait); callers own any overall deadline
            wait_initial=policy.base_delay,
            wait_max=policy.max_delay,
            wait_jitter=policy.base_delay,
        ):
            with attempt:
                attempts = attempt.num
                answer = await _attempt(call, attempts)
                return PostResult(answer, attempts - 1)
    except _RetryableFailureError as last:
        reason = f"{last.reason}; gave up after {attempts} attempts"
        raise ProviderHTTPError(provider, reason, status=last.status, transient=True, attempts=attempts) from None
    raise AssertionError("unreachable: stamina either returns an attempt's answer or raises")  # pragma: no cover


async def _attempt(call: _Call, number: int) -> Any:
    provider, policy, deadline = call.provider, call.policy, call.deadline

    def permanent(reason: str, status: int | None) -> ProviderHTTPError:
        return ProviderHTTPError(provider, reason, status=status, transient=False, attempts=number)

    try:
        response = await _send(call.client, call.url, call.headers, call.body, deadline)
    except (httpx.TimeoutException, TimeoutError):
        raise _RetryableFailureError(f"timed out after {deadline:g} s", None) from None
    except httpx.UnsupportedProtocol:
        raise permanent("unsupported URL scheme", None) from None
    except httpx.TransportError as error:  # names the host and the OS error, never headers
        raise _RetryableFailureError(f"connection failed (network error: {type(error).__name__})", None) from None
    status = response.status_code
    if 300 <= status < 400:
        raise permanent(f"HTTP {status} redirect, not followed; point the base URL at the final address", status)
    if status >= 400:
        reason = describe_status(response, call.secrets)
        if not is_retryable_status(response):
            raise permanent(reason, status)
        wait = server_requested_delay(response)
        if wait is not None and wait > policy.max_retry_after:
            reason = f"{reason}; server asked to retry after {wait:.0f} s"
            raise ProviderHTTPError(provider, reason, status=status, transient=True, attempts=number)
        raise _RetryableFailureError(reason, status, wait)
    try:
        return response.json()
    except ValueError:  # not JSON, or not even UTF-8: a garbled reply, worth another try
        raise _RetryableFailureError(f"HTTP {status} with a malformed body (not UTF-8 JSON)", status) from None


async def _send(
    client: httpx.AsyncClient | None, url: str, headers: Mapping[str, str], body: Mapping[str, Any], deadline: float
) -> httpx.Response:
    # httpx's timeout bounds each read; asyncio.timeout bounds the whole exchange, so a server that
    # trickles bytes cannot hold us past the deadline.
    async with asyncio.timeout(deadline):
        if client is not None:
            return await client.post(url, headers=dict(headers), json=body, timeout=deadline)
        async with httpx.AsyncClient(timeout=deadline) as own_client:
            return await own_client.post(url, headers=dict(headers), json=body)
