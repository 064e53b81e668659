"""Provider calls of the language models and the reranker, through Sextant's one retry policy.

The policy itself (which failures are retried, backoff, ``retry-after``, redaction) lives in
``sextant.provider_http`` and is shared with the embedders; this module keeps the names the model
clients already use.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import httpx

from sextant.provider_http import ProviderHTTPError, RetryPolicy
from sextant.provider_http import post_json as _post_json

ProviderCallError = ProviderHTTPError
"""A provider call that failed for good (``provider``, ``reason``, ``status``, ``attempts``, ``transient``)."""

__all__ = ["ProviderCallError", "RetryPolicy", "post_json"]


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
    """POST ``body`` as JSON and return the decoded JSON of a 2xx answer, retrying transient failures.

    Args:
        provider: Name used in log lines and errors.
        url: Endpoint; never carries a credential.
        headers: Request headers (credentials go here).
        body: JSON-serialisable request body.
        attempt_timeout: Deadline for one attempt, in seconds (connect to last byte).
        policy: Retry bounds and backoff.
        secrets: Values to scrub from any error text.
        client: A caller-owned client for connection reuse; by default each attempt opens its own.
        rng: Accepted for the clients' existing signature; the jitter now comes from stamina.

    Returns:
        The decoded JSON document.

    Raises:
        ProviderCallError: on a non-retryable answer, or when retries run out.
    """
    del rng
    result = await _post_json(
        provider=provider,
        url=url,
        headers=headers,
        body=body,
        policy=policy,
        secrets=secrets,
        client=client,
        attempt_timeout=attempt_timeout,
    )
    return result.answer
