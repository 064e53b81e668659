"""Chunk payloads for doc-claim tests, shaped exactly as the indexer writes them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_rules.kinds import chunk_kind

MakeChunk = Callable[..., ChunkPayload]


@pytest.fixture
def chunk() -> MakeChunk:
    """Build a ChunkPayload: `chunk(path, text, start_line=1, date=..., symbol=..., ...)`."""

    def make(
        path: str,
        text: str,
        *,
        start_line: int = 1,
        date: str | msgspec.UnsetType | None = "2026-01-10T12:00:00+00:00",
        **fields: Any,
    ) -> ChunkPayload:
        kind = chunk_kind(path)
        return ChunkPayload(
            repo_key="acme-app",
            path=path,
            blob_sha="0" * 40,
            kind=kind,
            language="markdown" if kind == "doc" else "python",
            start_line=start_line,
            end_line=start_line + max(text.count("\n"), 0),
            text=text,
            indexed_at="2026-02-01T00:00:00Z",
            last_modified_at=date,
            **fields,
        )

    return make
