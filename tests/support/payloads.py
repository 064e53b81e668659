"""Chunk payloads with sensible defaults: a test names only the fields it is about."""

from __future__ import annotations

from typing import Any

from sextant.chunkstore import ChunkPayload

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
