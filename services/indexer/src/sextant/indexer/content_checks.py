"""Whether a file's content is indexed: the checks on its bytes, shared by discovery and the parse process.

No import beyond the standard library, so the parse process (``parse_process``) starts quickly.
"""

from __future__ import annotations

from dataclasses import dataclass

BINARY_PROBE_BYTES = 8000
"""Bytes inspected for a NUL, as git itself does to call a file binary."""

SKIP_BINARY = "binary"
SKIP_TOO_LARGE = "too large"
SKIP_NOT_TEXT = "not UTF-8 text"


@dataclass(frozen=True)
class ContentSkip:
    """Why a file's content is not indexed."""

    reason: str
    """A SKIP_* reason (for ``ChunksIndexed.skipped``)."""
    message: str
    """The longer text for ``ChunksIndexed.failed_files``."""


def content_skip(data: bytes | None, max_file_bytes: int) -> ContentSkip | None:
    """Why a file's content is not indexed, or None when it is fine.

    Args:
        data: The blob's bytes; None when the reader left it out for being over ``max_file_bytes``.
        max_file_bytes: The size cap.

    Returns:
        The reason, or None.
    """
    if data is None or len(data) > max_file_bytes:
        size = "" if data is None else f" ({len(data):,} bytes)"
        message = f"skipped: larger than the {max_file_bytes:,}-byte limit{size} (INDEX_MAX_FILE_BYTES)"
        return ContentSkip(SKIP_TOO_LARGE, message)
    if b"\0" in data[:BINARY_PROBE_BYTES]:
        return ContentSkip(SKIP_BINARY, "skipped: binary content (NUL bytes)")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return ContentSkip(SKIP_NOT_TEXT, "skipped: binary or non-UTF-8 content")
    return None


def content_skip_reason(data: bytes | None, max_file_bytes: int) -> str | None:
    """The message of ``content_skip`` (for ``ChunksIndexed.failed_files``), or None.

    Args:
        data: The blob's bytes, or None when over the cap.
        max_file_bytes: The size cap.

    Returns:
        A reason text, or None.
    """
    skip = content_skip(data, max_file_bytes)
    return skip.message if skip is not None else None
