"""Is a delivery really from the code host? Both checks compare in constant time."""

from __future__ import annotations

import hashlib
import hmac

GITHUB_SIGNATURE_PREFIX = "sha256="


def github_signature_valid(secret: str, body: bytes, header: str | None) -> bool:
    """Check GitHub's ``X-Hub-Signature-256``: ``sha256=`` + hex HMAC-SHA256 of the raw body.

    Args:
        secret: The webhook secret.
        body: The raw request body, exactly as received.
        header: The header's value, or None when absent.

    Returns:
        True only for a well-formed header whose digest matches.
    """
    if not header or not header.startswith(GITHUB_SIGNATURE_PREFIX):
        return False
    expected = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, header.removeprefix(GITHUB_SIGNATURE_PREFIX).strip().lower())


def gitlab_token_valid(expected: str, header: str | None) -> bool:
    """Check GitLab's ``X-Gitlab-Token`` (a shared secret sent as is).

    Args:
        expected: The configured token.
        header: The header's value, or None when absent.

    Returns:
        True when they are equal (compared as bytes, in constant time).
    """
    if header is None:
        return False
    return hmac.compare_digest(expected.encode(), header.encode())
