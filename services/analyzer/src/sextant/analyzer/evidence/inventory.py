"""Files of the index: kind, language, size and date per file, and per top-level directory."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from sextant.analyzer.evidence.payload_lines import file_date
from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_rules import chunk_kind, median_date, parse_iso_date

ROOT_DIRECTORY = "(root)"
"""How files at the repository root are grouped."""


@dataclass
class FileInfo:
    """One indexed file as its chunks describe it."""

    path: str
    kind: str
    language: str
    last_modified_at: str | None = None
    chunks: int = 0
    lines: int = 0
    """The last line any chunk covers: the file's length as far as the index holds it."""


@dataclass(frozen=True)
class DirectoryStats:
    """Size and dates of one top-level directory."""

    name: str
    files: int
    code_files: int
    doc_files: int
    chunks: int
    lines: int
    newest: str | None
    median: str | None


@dataclass(frozen=True)
class Inventory:
    """Every indexed file and the totals the report quotes."""

    files: dict[str, FileInfo] = field(default_factory=dict)

    @property
    def chunks(self) -> int:
        """Chunks in the index for this repository."""
        return sum(info.chunks for info in self.files.values())

    @property
    def lines(self) -> int:
        """Lines covered, summed over files."""
        return sum(info.lines for info in self.files.values())

    def of_kind(self, kind: str) -> list[FileInfo]:
        """Files of one kind ("code" or "doc"), sorted by path."""
        return [info for path, info in sorted(self.files.items()) if info.kind == kind]

    def languages(self, kind: str | None = None) -> list[tuple[str, int]]:
        """(language, files), most files first, then by name."""
        counts = Counter(info.language for info in self.files.values() if kind in (None, info.kind))
        return sorted(counts.items(), key=lambda item: (-item[1], item[0]))

    def directories(self) -> list[DirectoryStats]:
        """One entry per top-level directory (root files as "(root)"), most files first."""
        groups: dict[str, list[FileInfo]] = {}
        for info in self.files.values():
            groups.setdefault(top_level_directory(info.path), []).append(info)
        stats = [_directory_stats(name, members) for name, members in groups.items()]
        return sorted(stats, key=lambda s: (-s.files, s.name))


def top_level_directory(path: str) -> str:
    """The first path segment, or "(root)" for a file at the root."""
    return path.split("/", 1)[0] if "/" in path else ROOT_DIRECTORY


def newest_date(dates: list[str | None]) -> str | None:
    """The latest of ISO dates (None and malformed ones ignored)."""
    known = [(parsed, value) for value in dates if (parsed := parse_iso_date(value)) is not None]
    return max(known)[1] if known else None


def _directory_stats(name: str, members: list[FileInfo]) -> DirectoryStats:
    dates = [info.last_modified_at for info in members]
    return DirectoryStats(
        name=name,
        files=len(members),
        code_files=sum(1 for info in members if info.kind == "code"),
        doc_files=sum(1 for info in members if info.kind == "doc"),
        chunks=sum(info.chunks for info in members),
        lines=sum(info.lines for info in members),
        newest=newest_date(dates),
        median=median_date(dates),
    )


class InventoryCollector:
    """Accumulates the Inventory one payload at a time."""

    def __init__(self) -> None:
        self._files: dict[str, FileInfo] = {}

    def add(self, payload: ChunkPayload) -> None:
        """Take in one chunk payload."""
        info = self._files.get(payload.path)
        if info is None:
            info = FileInfo(path=payload.path, kind=chunk_kind(payload.path), language=payload.language or "unknown")
            self._files[payload.path] = info
        info.chunks += 1
        info.lines = max(info.lines, payload.end_line)
        if info.last_modified_at is None:
            info.last_modified_at = file_date(payload)

    def build(self) -> Inventory:
        """The inventory."""
        return Inventory(files=dict(self._files))
