"""POST JSON to a hosted embedding API through Sextant's one retry policy (``sextant.provider_http``).

A failure that outlives the retries becomes the embedders' own ``EmbeddingError`` of that batch.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import httpx

from sextant.embedding.errors import EmbeddingError
from sextant.provider_http import ProviderHTTPError, RetryPolicy, post_json

__all__ = ["RetryPolicy", "post_json_with_retries"]


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
    """POST ``body`` as JSON and return the decoded answer, retrying what may pass on a second try.

    Args:
        client: The HTTP client (its timeouts are overridden by ``policy.timeout``).
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
    try:
        result = await post_json(
            provider=provider,
            url=url,
            headers=headers,
            body=body,
            policy=policy,
            secrets=(secret,) if secret else (),
            client=client,
        )
    except ProviderHTTPError as error:
        raise EmbeddingError(f"{provider}: {error.reason}", transient=error.transient) from None
    return result.answer, result.retries
