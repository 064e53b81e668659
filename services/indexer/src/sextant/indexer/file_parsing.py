"""One changed file's content checked and parsed into chunks: the same code in the run's process and in
the parse process (``parse_process``), so both give the same chunks."""

from __future__ import annotations

import msgspec

from sextant.indexer.content_checks import content_skip
from sextant.parsing import Chunk, build_chunks, decode_source


class NotParsed(msgspec.Struct, frozen=True, tag="not_parsed"):
    """A file that gets no new points this run, and whether its old points go."""

    reason: str | None
    """For failed_files when the file failed (unreadable, parse error); None for a blank file (nothing to
    index). Not reported when ``skip_reason`` is set: a content skip goes to ChunksIndexed.skipped alone."""
    drop_old_points: bool
    skip_reason: str | None = None
    """For ChunksIndexed.skipped when the content was not indexable (binary, too large, not UTF-8)."""
    parse_error: str | None = None
    """The parser's error, logged by the run (a parser bug costs one file, never the run)."""


def parse_file(path: str, data: bytes | None, *, max_file_bytes: int, max_chars: int) -> list[Chunk] | NotParsed:
    """A file's chunks, or why it has none.

    Args:
        path: The file's path in the tree.
        data: Its blob (None: the reader left it out, over the size cap).
        max_file_bytes: The size cap.
        max_chars: The dense budget of a chunk.

    Returns:
        The chunks (at least one), or the outcome of a file without any.
    """
    skip = content_skip(data, max_file_bytes)
    if skip is not None or data is None:
        # Binary or oversized now: the points of its earlier content describe something gone.
        message, reason = (skip.message, skip.reason) if skip is not None else ("skipped: unreadable", None)
        return NotParsed(message, drop_old_points=True, skip_reason=reason)
    try:
        chunks = build_chunks(path, decode_source(data), max_chars=max_chars)
    except Exception as error:  # a parser bug must cost one file, never the run
        reason = f"parse failed: {type(error).__name__}: {error} (old points kept)"
        return NotParsed(reason, drop_old_points=False, parse_error=f"{error}")
    if not chunks:
        return NotParsed(None, drop_old_points=True)
    return chunks
