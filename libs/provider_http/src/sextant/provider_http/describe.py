"""Turn a failed answer into a short, secret-free reason."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import httpx

from sextant.provider_http.statuses import AUTH_STATUSES

REASON_LIMIT = 300
"""Characters of the provider's own message kept in a reason."""


def redact(text: str, secrets: Sequence[str]) -> str:
    """Replace every occurrence of each secret in ``text`` with "[redacted]".

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


def describe_status(response: httpx.Response, secrets: Sequence[str]) -> str:
    """``HTTP <status> (<provider's type: message>)``, scrubbed; for auth failures the type only.

    Args:
        response: A non-2xx answer.
        secrets: Values to scrub.

    Returns:
        The reason.
    """
    status = response.status_code
    error_type, message = _error_parts(response)
    if status in AUTH_STATUSES:
        # The message may quote part of the key, which exact redaction would miss.
        kind = f" ({error_type})" if error_type else ""
        return redact(f"HTTP {status}{kind}, authentication failed (check the API key)", secrets)
    detail = ": ".join(part for part in (error_type, message) if part)
    detail = " ".join(detail.split())[:REASON_LIMIT]
    return redact(f"HTTP {status}" + (f" ({detail})" if detail else ""), secrets)


def _error_parts(response: httpx.Response) -> tuple[str, str]:
    """(type, message) from OpenAI/Anthropic ``error``, Cohere ``message``, Ollama ``error``, ``detail``."""
    try:
        body: Any = response.json()
    except ValueError:  # not JSON, or not UTF-8
        return "", ""
    if not isinstance(body, dict):
        return "", ""
    error = body.get("error")
    if isinstance(error, dict):
        return str(error.get("type") or error.get("code") or ""), str(error.get("message") or "")
    for key in ("error", "message", "detail"):
        if isinstance(body.get(key), str):
            return "", str(body[key])
    return "", ""
