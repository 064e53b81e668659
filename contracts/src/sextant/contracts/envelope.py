"""The envelope every event shares: ids, run, time, schema version and the repository reference."""

from __future__ import annotations

import hashlib
import re
import uuid
from datetime import UTC, datetime
from urllib.parse import urlsplit

import msgspec

SCHEMA_VERSION = 1
"""Bumped only for a breaking change; additive changes keep it (see docs/architecture.md, Events)."""

_UNSAFE_SUBJECT_CHARS = re.compile(r"[^a-z0-9_-]+")
_REPO_KEY_MAX_STEM = 60


def stable_id(*parts: object) -> str:
    """A deterministic id from its inputs: the same input always gives the same id.

    Args:
        parts: Values that together identify the fact (event type, run id, purpose, ...).

    Returns:
        32 hex characters of a SHA-256 over the parts.
    """
    digest = hashlib.sha256("\x1f".join(str(part) for part in parts).encode("utf-8"))
    return digest.hexdigest()[:32]


def new_run_id() -> str:
    """A fresh run id for a run that a user asked for explicitly (not a retry of an earlier one)."""
    return uuid.uuid4().hex


def _strip_credentials_and_scheme(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme and parts.netloc:
        host = parts.hostname or ""
        return f"{host}{parts.path}"
    if parts.scheme == "file":
        return parts.path
    # scp-like "git@host:org/repo" or a plain path
    return url.split("@", 1)[-1].replace(":", "/", 1) if "@" in url else url


def url_without_credentials(url: str) -> str:
    """The URL with any ``user:password@`` part removed (for URLs that must never be repeated as given)."""
    parts = urlsplit(url)
    if parts.scheme and parts.netloc and "@" in parts.netloc:
        host = parts.netloc.rsplit("@", 1)[1]
        return parts._replace(netloc=host).geturl()
    return url


def url_has_credentials(url: str) -> bool:
    """Whether the URL embeds credentials (``https://user:token@host/...``)."""
    parts = urlsplit(url)
    return bool(parts.scheme and parts.netloc and "@" in parts.netloc and parts.scheme != "ssh")


def repo_key_for(url: str) -> str:
    """A subject-safe, stable key for a repository URL or path.

    Credentials and the scheme never reach the key. The readable stem is followed by a short hash
    of the normalised location, so two repositories with the same name never share a key.

    Args:
        url: Repository URL (https, ssh, scp-like, file://) or a local path.

    Returns:
        A key made of ``[a-z0-9_-]`` only, safe as one NATS subject token.
    """
    location = _strip_credentials_and_scheme(url.strip()).rstrip("/")
    location = location.removesuffix(".git").lower()
    stem = _UNSAFE_SUBJECT_CHARS.sub("_", location).strip("_")[-_REPO_KEY_MAX_STEM:].strip("_") or "repo"
    return f"{stem}-{stable_id('repo', location)[:8]}"


class RepoRef(msgspec.Struct, frozen=True, kw_only=True):
    """Which repository an event is about."""

    url: str
    """Clone URL or local path of the repository. Never carries credentials."""
    repo_key: str
    """Subject-safe key derived from the URL (see ``repo_key_for``)."""
    provider: str = "generic"
    """Hosting provider: github, gitlab, bitbucket or generic (decides how credentials are sent)."""
    branch: str | None = None
    """Branch the event is about; None means the repository's default branch."""

    @classmethod
    def for_url(cls, url: str, *, provider: str = "generic", branch: str | None = None) -> RepoRef:
        """Build a reference with its key derived from the URL."""
        return cls(url=url, repo_key=repo_key_for(url), provider=provider, branch=branch)


class Event(msgspec.Struct, frozen=True, kw_only=True, tag=True):
    """Fields every event carries. Concrete events add fields, always with defaults when new."""

    event_id: str
    """Deterministic id of this fact (same input → same id); sent as the ``Nats-Msg-Id`` header."""
    run_id: str
    """Ties every event of one pipeline run together."""
    occurred_at: str
    """ISO 8601 UTC time the event was produced."""
    repo: RepoRef
    """The repository the event is about."""
    schema_version: int = SCHEMA_VERSION
    """Version of the event schema the producer wrote."""


def utc_now_iso() -> str:
    """The current UTC time as ISO 8601 (the ``occurred_at`` of a new event)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
