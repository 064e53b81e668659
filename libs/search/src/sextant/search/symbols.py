"""Symbol definitions (exact, then prefix, through the store's symbol index) and usages (identifier match)."""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import msgspec

from sextant.chunkstore import ChunkPayload, ChunkStore
from sextant.doc_rules import payload_date
from sextant.embedding import SparseEncoder
from sextant.search.ages import age_words
from sextant.search.hits import SearchHit
from sextant.search.snippets import has_token, snippet_for
from sextant.search.trust import retrieved_code_median, trust_note

DEFINITION_LIMIT = 50
"""Definitions listed per look-up (exact ones first)."""
USAGE_CANDIDATES = 300
"""Chunks the sparse side ranks for an identifier before the exact-token check keeps real usages."""


class SymbolReport(msgspec.Struct, frozen=True, kw_only=True):
    """What is known of a name."""

    name: str
    definitions: list[SearchHit]
    """Chunks whose symbol is exactly the name."""
    prefix_matches: list[SearchHit]
    """Other symbols that start with the name."""
    usages: list[SearchHit] | None = None
    """Where the identifier appears (None when usages were not asked for)."""
    notes: list[str] = msgspec.field(default_factory=list)


@dataclass(frozen=True)
class SymbolFinder:
    """Definitions and usages over one store."""

    store: ChunkStore
    sparse: SparseEncoder
    doc_note: str

    async def definitions(self, repo_keys: Sequence[str], name: str, limit: int = DEFINITION_LIMIT) -> SymbolReport:
        """Exact definitions of ``name`` and the symbols it prefixes.

        Args:
            repo_keys: Repositories to look in.
            name: Symbol name (case-sensitive).
            limit: Most definitions of each sort.

        Returns:
            The report (usages None).
        """
        exact: list[ChunkPayload] = []
        prefixed: list[ChunkPayload] = []
        for key in repo_keys:
            exact += await asyncio.to_thread(self.store.find_symbols, key, name, limit=limit)
            more = await asyncio.to_thread(self.store.find_symbols, key, name, prefix=True, limit=limit + len(exact))
            prefixed += [payload for payload in more if payload.symbol != name]
        return SymbolReport(
            name=name,
            definitions=[self._hit(p, p.start_line) for p in _first_windows(exact)][:limit],
            prefix_matches=[self._hit(p, p.start_line) for p in _first_windows(prefixed)][:limit],
        )

    async def usages(self, repo_keys: Sequence[str], name: str, limit: int = DEFINITION_LIMIT) -> list[SearchHit]:
        """Chunks where ``name`` appears as a whole identifier, its own declaration line excluded.

        Args:
            repo_keys: Repositories to look in.
            name: The identifier (case-sensitive).
            limit: Most usages returned.

        Returns:
            One hit per chunk at the first line using the name, best sparse rank first.
        """
        query = self.sparse.encode_query(name)
        found: list[tuple[ChunkPayload, int, float]] = []
        for key in repo_keys:
            definitions = await asyncio.to_thread(self.store.find_symbols, key, name)
            declarations = {(p.path, line) for p in definitions if (line := _usage_line(p, name, ())) is not None}
            hits = await asyncio.to_thread(self.store.search_chunks, key, sparse=query, limit=USAGE_CANDIDATES)
            for hit in hits:
                where = _usage_line(hit.payload, name, declarations)
                if where is not None:
                    found.append((hit.payload, where, hit.score))
        median = retrieved_code_median([payload for payload, _, _ in found])
        return [
            self._hit(payload, line, median=median, usage=True, score=score) for payload, line, score in found[:limit]
        ]

    def _hit(
        self, payload: ChunkPayload, line: int, *, median: str | None = None, usage: bool = False, score: float = 0.0
    ) -> SearchHit:
        date = payload_date(payload)
        stale, note = trust_note(payload, median, self.doc_note)
        if usage:
            snippet = _line_text(payload, line)
        else:
            snippet = payload.signature or snippet_for(payload.text, payload.symbol or "", lines=1)
        return SearchHit(
            repo_key=payload.repo_key, path=payload.path, start_line=payload.start_line, end_line=payload.end_line,
            kind=payload.kind, language=payload.language, symbol=payload.symbol, symbol_type=payload.symbol_type,
            score=score, last_modified_at=date, age=age_words(date), stale=stale, trust_note=note, snippet=snippet,
            line=line if usage else None,
        )  # fmt: skip


def _usage_line(payload: ChunkPayload, name: str, declarations: Collection[tuple[str, int]]) -> int | None:
    """First line of the chunk naming ``name`` that is not one of its declarations (the symbol's own
    declaration line, wherever a chunk — the symbol's or its enclosing module's — contains it)."""
    for offset, line in enumerate(payload.text.splitlines()):
        number = payload.start_line + offset
        if has_token(line, name) and (payload.path, number) not in declarations:
            return number
    return None


def _line_text(payload: ChunkPayload, line: int) -> str:
    lines = payload.text.splitlines()
    index = line - payload.start_line
    return lines[index].strip()[:160] if 0 <= index < len(lines) else ""


def _first_windows(payloads: Sequence[ChunkPayload]) -> list[ChunkPayload]:
    return [payload for payload in payloads if payload.window == 0]
