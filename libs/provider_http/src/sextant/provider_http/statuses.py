"""Which answers are worth another try, and how long the server asked us to wait."""

from __future__ import annotations

import email.utils
import time

import httpx

RETRYABLE_CLIENT_STATUSES = frozenset({408, 409, 425, 429})
"""Request timeout, conflict (Anthropic marks it retryable), too early, rate limited."""
PERMANENT_SERVER_STATUSES = frozenset({501, 505})
"""Not implemented, HTTP version not supported: a second try gets the same answer. Every other 5xx
(Anthropic's 529 "overloaded" included) is an outage worth waiting out."""
AUTH_STATUSES = frozenset({401, 403})
"""Their bodies may echo part of the key: only the provider's error type is kept."""


def is_retryable_status(response: httpx.Response) -> bool:
    """Whether a non-2xx answer may pass on a later try.

    A provider's ``x-should-retry`` header (Anthropic, OpenAI) overrides the status.

    Args:
        response: The answer.

    Returns:
        True to retry.
    """
    hint = str(response.headers.get("x-should-retry", ""))
    if hint in ("true", "false"):
        return hint == "true"
    status = response.status_code
    return status in RETRYABLE_CLIENT_STATUSES or (status >= 500 and status not in PERMANENT_SERVER_STATUSES)


def server_requested_delay(response: httpx.Response) -> float | None:
    """Seconds the server asked us to wait (``retry-after-ms``, or ``retry-after`` as seconds or a date).

    Args:
        response: The answer.

    Returns:
        The wait, or None when the server said nothing usable.
    """
    milliseconds = response.headers.get("retry-after-ms")
    if milliseconds:
        try:
            return max(0.0, float(milliseconds) / 1000)
        except ValueError:
            pass
    value = (response.headers.get("retry-after") or "").strip()
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - time.time())
