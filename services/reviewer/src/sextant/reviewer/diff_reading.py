"""What a unified diff changes: files, and the names and paths it removes, renames or rewrites."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_FILE_HEADER = re.compile(r"^diff --git a/(.+?) b/(.+)$")
_DECLARATION = re.compile(
    r"^\s*(?:export\s+)?(?:(?:pub(?:\([^)]*\))?|public|private|protected|static|async|final|abstract)\s+)*"
    r"(?:def|class|function|func|fn|interface|struct|enum|trait|type|module)\s+"
    r"(?:\([^)]*\)\s*)?([A-Za-z_][A-Za-z0-9_]*)"
)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")


@dataclass
class FileChange:
    """One file in the diff."""

    old_path: str
    new_path: str
    added: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    first_new_line: int | None = None

    @property
    def deleted(self) -> bool:
        """The file is gone after the change."""
        return self.new_path == "/dev/null"

    @property
    def renamed(self) -> bool:
        """The file moved."""
        return self.old_path not in (self.new_path, "/dev/null") and self.new_path != "/dev/null"


@dataclass(frozen=True)
class DiffSummary:
    """The parts of a diff the reviewer reasons about."""

    files: list[FileChange]
    removed_symbols: dict[str, str]
    """Declared names that the change removes (or renames away), → the file they were declared in."""
    rewritten_symbols: dict[str, str]
    """Declared names whose declaration line the change rewrites (signature changes), → file."""
    removed_paths: list[str]
    """Files deleted or moved away by the change."""

    def touched_identifiers(self, limit: int = 40) -> list[str]:
        """Identifiers on changed lines, most frequent first (for the retrieval query)."""
        counts: dict[str, int] = {}
        for change in self.files:
            for line in change.added + change.removed:
                for name in _IDENTIFIER.findall(line):
                    counts[name] = counts.get(name, 0) + 1
        return sorted(counts, key=lambda name: (-counts[name], name))[:limit]


def read_diff(diff: str) -> DiffSummary:
    """Parse a unified diff (``git diff`` output).

    Args:
        diff: The diff text.

    Returns:
        Files changed, and declared names/paths removed, renamed or rewritten.
    """
    files = _file_changes(diff)
    removed: dict[str, str] = {}
    rewritten: dict[str, str] = {}
    for change in files:
        declared_before = _declared(change.removed)
        declared_after = _declared(change.added)
        for name in declared_before:
            if name not in declared_after:
                removed[name] = change.old_path
            else:
                rewritten[name] = change.new_path
    removed_paths = [change.old_path for change in files if change.deleted or change.renamed]
    return DiffSummary(files=files, removed_symbols=removed, rewritten_symbols=rewritten, removed_paths=removed_paths)


def _declared(lines: list[str]) -> set[str]:
    names = set()
    for line in lines:
        match = _DECLARATION.match(line)
        if match:
            names.add(match.group(1))
    return names


def _file_changes(diff: str) -> list[FileChange]:
    files: list[FileChange] = []
    current: FileChange | None = None
    new_line = 0
    for line in diff.splitlines():
        header = _FILE_HEADER.match(line)
        if header:
            current = FileChange(old_path=header.group(1), new_path=header.group(2))
            files.append(current)
            continue
        if current is None:
            continue
        if line.startswith("--- "):
            current.old_path = _side_path(line[4:], current.old_path)
        elif line.startswith("+++ "):
            current.new_path = _side_path(line[4:], current.new_path)
        elif line.startswith("@@"):
            match = re.search(r"\+(\d+)", line)
            new_line = int(match.group(1)) if match else 1
            if current.first_new_line is None:
                current.first_new_line = new_line
        elif line.startswith("+"):
            current.added.append(line[1:])
            new_line += 1
        elif line.startswith("-"):
            current.removed.append(line[1:])
        elif line.startswith(" "):
            new_line += 1
    return files


def _side_path(raw: str, fallback: str) -> str:
    raw = raw.strip()
    if raw == "/dev/null":
        return raw
    if raw.startswith(("a/", "b/")):
        return raw[2:]
    return raw or fallback
