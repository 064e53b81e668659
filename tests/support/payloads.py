"""Chunk payloads with sensible defaults: a test names only the fields it is about."""

from __future__ import annotations

from typing import Any

from sextant.chunkstore import ChunkPayload
from sextant.contracts import SelectedChunk

DEFAULT_PAYLOAD: dict[str, Any] = {
    "blob_sha": "b" * 40,
    "kind": "code",
    "language": "python",
    "start_line": 1,
    "end_line": 2,
    "indexed_at": "2026-01-01T00:00:00Z",
}
"""What a payload holds when the test does not say."""


def chunk_payload(repo_key: str, path: str, text: str, **fields: Any) -> ChunkPayload:
    """One chunk's payload.

    Args:
        repo_key: The repository's key.
        path: Repository path of the chunk.
        text: Chunk text.
        **fields: Any other ChunkPayload field (``symbol`` defaults to the path).

    Returns:
        The payload.
    """
    values = {**DEFAULT_PAYLOAD, "symbol": path, **fields}
    return ChunkPayload(repo_key=repo_key, path=path, text=text, **values)


def selected_chunk(path: str, text: str, **fields: Any) -> SelectedChunk:
    """One chunk as a selection carries it: code, lines 1-1, no known date unless the test says.

    Args:
        path: Repository path.
        text: Chunk text.
        **fields: Any other SelectedChunk field (kind, start_line, end_line, last_modified_at, reason...).

    Returns:
        The selected chunk.
    """
    values: dict[str, Any] = {"kind": "code", "start_line": 1, "end_line": 1, "last_modified_at": None, **fields}
    return SelectedChunk(path=path, text=text, **values)
