"""Endpoint URLs as we show them: never with credentials in them."""

from __future__ import annotations

import httpx


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
