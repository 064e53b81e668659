"""Show a URL without the credentials it may carry (user, password or token in its userinfo)."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

REDACTED = "***"


def redacted_url(url: str) -> str:
    """The URL with any userinfo replaced by ``***`` (host, port and path kept).

    Args:
        url: Any URL, or a list of them separated by commas (NATS accepts several servers).

    Returns:
        Text that is safe to print, log or store.
    """
    return ",".join(_redact_one(part) for part in url.split(","))


def _redact_one(url: str) -> str:
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return REDACTED
    if "@" not in parts.netloc:
        return url.strip()
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit((parts.scheme, f"{REDACTED}@{host}", parts.path, parts.query, parts.fragment))


def has_userinfo(url: str) -> bool:
    """Whether any of the (comma-separated) URLs carries a user, password or token.

    Args:
        url: A URL or a comma-separated list of them.

    Returns:
        True when printing it unredacted would leak a credential.
    """
    return any("@" in urlsplit(part.strip()).netloc for part in url.split(",") if "://" in part)
