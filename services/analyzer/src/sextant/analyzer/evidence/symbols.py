"""Symbols of the indexed code: the largest definitions and the names other files mention most.

A mention is counted per file: a code file "names" a symbol when the identifier appears anywhere in
its indexed text (code, strings or comments), outside the files that define it. Only names that can
be told apart from ordinary words are counted: defined in exactly one file, at least four characters,
not private (leading underscore) or a test, and shaped like code (CamelCase or snake_case; a plain
lowercase word such as `update` is left out, because its mentions say nothing). Definitions in test
files are not ranked (a fixture's helper is no component of the product).
"""

from __future__ import annotations

import heapq
import re
import sys
from collections import Counter
from dataclasses import dataclass

from sextant.analyzer.evidence.test_files import is_test_path
from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_rules import chunk_kind
from sextant.parsing.symbol_kinds import NON_DEFINITION_SYMBOL_TYPES

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CODE_SHAPED = re.compile(r"[A-Z_0-9]")
_MIN_NAME = 4

_SpanKey = tuple[str, str | None, str, str, int]
"""Path, parent, name, symbol type, and the signature's hash: one definition (all its windows)."""


@dataclass(frozen=True)
class SymbolSpan:
    """One definition and the lines it spans (its windows merged)."""

    name: str
    """`Parent.name` when the symbol has a parent, else its name."""
    symbol_type: str
    path: str
    start_line: int
    end_line: int

    @property
    def lines(self) -> int:
        """Lines the definition spans."""
        return self.end_line - self.start_line + 1


@dataclass(frozen=True)
class SymbolMentions:
    """A symbol and how many other code files name it."""

    name: str
    path: str
    line: int
    symbol_type: str
    files: int


@dataclass(frozen=True)
class SymbolStats:
    """What the report says about symbols."""

    definitions: int
    documented: int
    """Definitions with a docstring or doc comment."""
    largest: list[SymbolSpan]
    most_mentioned: list[SymbolMentions]


def is_counted_name(name: str) -> bool:
    """Whether mentions of this name can be counted (see the module docstring)."""
    return (
        len(name) >= _MIN_NAME
        and not name.startswith("_")
        and not name.lower().startswith("test")
        and _CODE_SHAPED.search(name) is not None
    )


class SymbolCollector:
    """Accumulates definitions and per-file identifiers one code payload at a time."""

    def __init__(self) -> None:
        self._spans: dict[_SpanKey, list[int]] = {}
        self._documented: set[_SpanKey] = set()
        self._tokens: dict[str, set[str]] = {}

    def add(self, payload: ChunkPayload) -> None:
        """Take in one chunk payload (docs are ignored).

        Only what the statistics read is kept, each string once: per file the names that can be
        counted (not every identifier), paths and names interned (a file's chunks share one copy),
        and a split symbol's signature as a hash (it only tells windows apart).
        """
        if chunk_kind(payload.path) != "code":
            return
        path = sys.intern(payload.path)
        tokens = self._tokens.setdefault(path, set())
        tokens.update(sys.intern(name) for name in set(_IDENTIFIER.findall(payload.text)) if is_counted_name(name))
        if not payload.symbol or payload.symbol_type in NON_DEFINITION_SYMBOL_TYPES:
            return
        # The windows of one split symbol share path, parent, name, type and signature.
        key = (
            path,
            sys.intern(payload.parent) if payload.parent else None,
            sys.intern(payload.symbol),
            sys.intern(payload.symbol_type),
            hash(payload.signature),
        )
        span = self._spans.setdefault(key, [payload.start_line, payload.end_line])
        span[0], span[1] = min(span[0], payload.start_line), max(span[1], payload.end_line)
        if payload.docstring:
            self._documented.add(key)

    def build(self, limit: int = 10) -> SymbolStats:
        """The statistics, with `limit` entries per ranking.

        Args:
            limit: Entries per list.

        Returns:
            The statistics.
        """
        spans = (
            SymbolSpan(
                name=f"{parent}.{name}" if parent else name,
                symbol_type=symbol_type,
                path=path,
                start_line=lines[0],
                end_line=lines[1],
            )
            for (path, parent, name, symbol_type, _), lines in self._spans.items()
        )
        largest = heapq.nsmallest(limit, spans, key=lambda s: (-s.lines, s.path, s.start_line))
        return SymbolStats(
            definitions=len(self._spans),
            documented=len(self._documented),
            largest=largest,
            most_mentioned=self._most_mentioned(limit),
        )

    def _most_mentioned(self, limit: int) -> list[SymbolMentions]:
        defined_in: dict[str, set[str]] = {}
        first_site: dict[str, tuple[str, int, str]] = {}
        for key in sorted(self._spans, key=lambda k: (k[0], self._spans[k][0])):
            path, _, name, symbol_type, _ = key
            simple = name.rsplit(".", 1)[-1]
            defined_in.setdefault(simple, set()).add(path)
            first_site.setdefault(simple, (path, self._spans[key][0], symbol_type))
        counted = {
            name
            for name, files in defined_in.items()
            if len(files) == 1 and is_counted_name(name) and not is_test_path(next(iter(files)))
        }
        mentions: Counter[str] = Counter()
        for path, tokens in self._tokens.items():
            for name in tokens & counted:
                if path not in defined_in[name]:
                    mentions[name] += 1
        ranked = sorted(mentions.items(), key=lambda item: (-item[1], item[0]))[:limit]
        return [
            SymbolMentions(
                name=name,
                path=first_site[name][0],
                line=first_site[name][1],
                symbol_type=first_site[name][2],
                files=files,
            )
            for name, files in ranked
        ]
