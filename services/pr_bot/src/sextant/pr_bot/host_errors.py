"""How the bot reacts to a code host's answer: retry what may pass later, give up on what never will."""

from __future__ import annotations

import httpx

RETRYABLE_STATUSES = frozenset({408, 429, 500, 502, 503, 504})


class HostRefusedError(RuntimeError):
    """The host refused the request for good (bad token, no access, unknown pull request)."""


def check(response: httpx.Response, what: str) -> httpx.Response:
    """Raise for a failed response: ``httpx.HTTPStatusError`` when a retry may help (the bus redelivers
    with backoff), HostRefusedError when it cannot.

    Args:
        response: The host's response.
        what: What was attempted, for the message (never includes the token).

    Returns:
        The response, when successful.
    """
    if response.is_success:
        return response
    if response.status_code in RETRYABLE_STATUSES:
        response.raise_for_status()
    raise HostRefusedError(f"{what}: HTTP {response.status_code}")
