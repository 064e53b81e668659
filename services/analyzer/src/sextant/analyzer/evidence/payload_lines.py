"""Where a chunk's text lines sit in its file: exact for contiguous chunks, unknown for outlines."""

from __future__ import annotations

import msgspec

from sextant.chunkstore.payload import ChunkPayload


def text_lines(payload: ChunkPayload) -> list[str]:
    """The chunk's text split into lines (no line endings)."""
    return payload.text.split("\n")


def is_contiguous(payload: ChunkPayload) -> bool:
    """Whether the chunk's text is exactly file lines start_line..end_line.

    A class outline elides member bodies into `...` lines, so its line count differs from its span;
    then a line's file number cannot be told from the payload alone.
    """
    return len(text_lines(payload)) == payload.end_line - payload.start_line + 1


def file_date(payload: ChunkPayload) -> str | None:
    """The chunk's file date: None when unknown or when the recency scan did not run."""
    value = payload.last_modified_at
    return None if isinstance(value, msgspec.UnsetType) else value


class FileTexts:
    """Puts chosen files back together from their chunks (overlapping windows: the first copy wins)."""

    def __init__(self) -> None:
        self._lines: dict[str, dict[int, str]] = {}

    def add(self, payload: ChunkPayload) -> None:
        """Take in one chunk of a chosen file."""
        lines = self._lines.setdefault(payload.path, {})
        for offset, line in enumerate(text_lines(payload)):
            lines.setdefault(payload.start_line + offset, line)

    def texts(self) -> dict[str, str]:
        """Path → text from line 1 (lines no chunk covers are empty, so numbering stays true)."""
        return {
            path: "\n".join(lines.get(number, "") for number in range(1, max(lines) + 1))
            for path, lines in self._lines.items()
            if lines
        }
