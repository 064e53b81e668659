"""Turn a file's parsed chunks into payloads and deterministic point ids."""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from sextant.chunkstore import ChunkPayload, point_id
from sextant.indexer.recency_stamp import Stamp
from sextant.indexer.symbol_dates import SymbolDate
from sextant.parsing import Chunk

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class FileVersion:
    """What every point of one file version written by one run shares."""

    repo_key: str
    blob_sha: str
    """Blob SHA of the file the chunks came from."""
    chunk_count: int
    """How many points the version has: the completeness check of the next plan."""
    run_id: str
    """The run writing them."""
    added: bool
    """The store held no point of the file before this run."""
    stamp: Stamp
    """``last_modified_at`` for the file (UNSET leaves the field out)."""
    indexed_at: str
    """ISO time of the run."""


def chunk_payload(chunk: Chunk, version: FileVersion, symbol_date: SymbolDate | None = None) -> ChunkPayload:
    """The stored payload of one chunk.

    Args:
        chunk: A chunk from ``sextant.parsing.build_chunks``.
        version: The file version it belongs to.
        symbol_date: When the chunk's own lines last changed (None: not computed, the fields stay out).

    Returns:
        The payload (its dense text kept as a prefix of ``text`` when it is one, for the dense phase).
    """
    prefix, whole = _dense_text_parts(chunk)
    return ChunkPayload(
        repo_key=version.repo_key,
        path=chunk.path,
        blob_sha=version.blob_sha,
        kind=chunk.kind,
        language=chunk.language,
        symbol=chunk.name,
        # Interned: msgspec leaves a default out by identity, and a chunk from the parse process carries
        # an equal string of its own ("window" would then be stored on every window).
        symbol_type=sys.intern(chunk.symbol_type),
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
        indexed_at=version.indexed_at,
        last_modified_at=version.stamp,
        file_chunk_count=version.chunk_count,
        run_id=version.run_id,
        file_added=version.added,
        dense_prefix=prefix,
        dense_text=whole,
        symbol_last_modified_at=symbol_date.at if symbol_date is not None else msgspec.UNSET,
        symbol_date_source=symbol_date.source if symbol_date is not None else None,
    )


def _dense_text_parts(chunk: Chunk) -> tuple[str, str | None]:
    """(prefix, None) when the dense text is a header before the chunk's text, else ("", whole text)."""
    if chunk.dense_text.endswith(chunk.text):
        return chunk.dense_text[: len(chunk.dense_text) - len(chunk.text)], None
    return "", chunk.dense_text


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
