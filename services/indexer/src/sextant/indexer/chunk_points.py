"""Turn a file's parsed chunks into payloads and deterministic point ids."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from sextant.chunkstore import ChunkPayload, point_id
from sextant.indexer.recency_stamp import Stamp
from sextant.parsing import Chunk

logger = logging.getLogger(__name__)


def chunk_payload(chunk: Chunk, *, repo_key: str, blob_sha: str, stamp: Stamp, indexed_at: str) -> ChunkPayload:
    """The stored payload of one chunk.

    Args:
        chunk: A chunk from ``sextant.parsing.build_chunks``.
        repo_key: Repository key.
        blob_sha: Blob SHA of the file the chunk came from.
        stamp: ``last_modified_at`` for the file (UNSET leaves the field out).
        indexed_at: ISO time of the run.

    Returns:
        The payload.
    """
    return ChunkPayload(
        repo_key=repo_key,
        path=chunk.path,
        blob_sha=blob_sha,
        kind=chunk.kind,
        language=chunk.language,
        symbol=chunk.name,
        symbol_type=chunk.symbol_type,
        parent=chunk.parent,
        package=chunk.package,
        signature=chunk.signature or None,
        docstring=chunk.docstring,
        annotations=list(chunk.annotations),
        start_line=chunk.start_line,
        end_line=chunk.end_line,
        window=chunk.window,
        window_count=chunk.window_count,
        text=chunk.text,
        indexed_at=indexed_at,
        last_modified_at=stamp,
    )


def chunk_point_ids(repo_key: str, chunks: Sequence[Chunk]) -> list[str]:
    """Deterministic ids of a file's chunks: uuid5 of repo, path, symbol, symbol start line, window.

    Two chunks with the same symbol name on the same line (possible in minified or generated code)
    would share an id and one would silently overwrite the other, so a repeat gets an ordinal suffix
    on its symbol part; the suffix depends only on the file's content, so ids stay stable.

    Args:
        repo_key: Repository key.
        chunks: The file's chunks in file order.

    Returns:
        One unique id per chunk, in the same order.
    """
    ids: list[str] = []
    seen: set[str] = set()
    for chunk in chunks:
        identifier = point_id(repo_key, chunk.path, chunk.name, chunk.symbol_start_line, chunk.window)
        repeat = 1
        while identifier in seen:
            repeat += 1
            symbol = f"{chunk.name or ''}#{repeat}"
            identifier = point_id(repo_key, chunk.path, symbol, chunk.symbol_start_line, chunk.window)
        if repeat > 1:
            logger.debug("disambiguated a repeated chunk id in %s", chunk.path)
        seen.add(identifier)
        ids.append(identifier)
    return ids
