"""Chunks: symbols cut to an embedding budget, each with its dense and sparse text."""

from __future__ import annotations

import msgspec

from sextant.doc_rules.kinds import ChunkKind, chunk_kind
from sextant.parsing.budget_windows import budget_windows
from sextant.parsing.embedding_text import dense_header, sparse_text
from sextant.parsing.symbol_draft import ELIDED, SymbolDraft
from sextant.parsing.symbols import symbol_drafts

MIN_MAX_CHARS = 64
"""Smallest dense budget accepted: room for a shortened preamble and a little source."""
_SEPARATOR = "\n\n"


class Chunk(msgspec.Struct, frozen=True, kw_only=True):
    """One point to embed: a symbol, or one window of a symbol too large for the dense budget."""

    path: str
    kind: ChunkKind
    """"doc" or "code" (sextant.doc_rules.kinds.chunk_kind)."""
    name: str | None
    symbol_type: str
    language: str
    parent: str | None
    package: str | None
    signature: str
    docstring: str | None
    annotations: tuple[str, ...]
    start_line: int
    """First file line of this chunk's text (1-based, inclusive)."""
    end_line: int
    """Last file line of this chunk's text (1-based, inclusive)."""
    symbol_start_line: int
    """First line of the whole symbol; with the name, it identifies the symbol across its windows."""
    symbol_end_line: int
    source: str
    """The whole symbol's indexed source (shared by all its windows)."""
    window: int
    """Index of this window within the symbol, 0..window_count-1."""
    window_count: int
    text: str
    """This chunk's slice of the source."""
    dense_text: str
    """Metadata preamble + signature + text; never longer than max_chars."""
    sparse_text: str
    """Metadata words + signature + docstring + text, for BM25."""


def _fit_header(header: str, max_chars: int) -> str:
    # The header may take at most half the budget, so that every window carries real source.
    cap = max_chars // 2
    return header if len(header) <= cap else header[: cap - 1] + "…"


def _chunk(
    draft: SymbolDraft,
    path: str,
    kind: ChunkKind,
    *,
    lines: tuple[int, int],
    window: tuple[int, int],
    text: str,
) -> Chunk:
    symbol = draft.symbol
    return Chunk(
        path=path,
        kind=kind,
        name=symbol.name,
        symbol_type=symbol.symbol_type,
        language=symbol.language,
        parent=symbol.parent,
        package=symbol.package,
        signature=symbol.signature,
        docstring=symbol.docstring,
        annotations=symbol.annotations,
        start_line=lines[0],
        end_line=lines[1],
        symbol_start_line=symbol.start_line,
        symbol_end_line=symbol.end_line,
        source=symbol.source,
        window=window[0],
        window_count=window[1],
        text=text,
        dense_text="",
        sparse_text=sparse_text(symbol, path, text),
    )


def _chunks_of(draft: SymbolDraft, path: str, kind: ChunkKind, max_chars: int, repo_label: str | None) -> list[Chunk]:
    symbol = draft.symbol
    header = dense_header(symbol, path, repo_label)
    whole = header + _SEPARATOR + symbol.source
    if len(whole) <= max_chars:
        lines = (symbol.start_line, symbol.end_line)
        chunk = _chunk(draft, path, kind, lines=lines, window=(0, 1), text=symbol.source)
        return [msgspec.structs.replace(chunk, dense_text=whole)]
    header = _fit_header(header, max_chars)
    windows = budget_windows(symbol.source.split("\n"), max_chars - len(header) - len(_SEPARATOR))
    chunks: list[Chunk] = []
    for index, window in enumerate(windows):
        numbers = [n for n in draft.line_numbers[window.first : window.last + 1] if n != ELIDED]
        lines = (min(numbers, default=symbol.start_line), max(numbers, default=symbol.start_line))
        chunk = _chunk(draft, path, kind, lines=lines, window=(index, len(windows)), text=window.text)
        chunks.append(msgspec.structs.replace(chunk, dense_text=header + _SEPARATOR + window.text))
    return chunks


def build_chunks(path: str, text: str, *, max_chars: int, repo_label: str | None = None) -> list[Chunk]:
    """Parse a file and cut it into chunks whose dense texts fit the embedding budget.

    A symbol whose dense text is over budget becomes overlapping windows (by lines, ~15% overlap; a
    line longer than the budget is cut by characters): nothing is truncated away.

    Args:
        path: Repository-relative path (chooses the language and the doc/code kind).
        text: The decoded file content (any line endings).
        max_chars: Character budget of each dense text (provider-aware); at least MIN_MAX_CHARS.
        repo_label: Optional repository/service name to mention in the dense preamble.

    Returns:
        Chunks in file order, a symbol's windows in window order; the same input gives the same output.

    Raises:
        ValueError: When max_chars is below MIN_MAX_CHARS.
    """
    if max_chars < MIN_MAX_CHARS:
        raise ValueError(f"max_chars must be at least {MIN_MAX_CHARS}, got {max_chars}")
    kind = chunk_kind(path)
    chunks: list[Chunk] = []
    for draft in symbol_drafts(path, text):
        chunks.extend(_chunks_of(draft, path, kind, max_chars, repo_label))
    return chunks
