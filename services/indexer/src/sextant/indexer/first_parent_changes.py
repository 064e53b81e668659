"""Which versions each head file went through along the first parents: one ``git log --raw`` walk, no diff.

The walk names, newest first, every first-parent commit that changed one of the followed files, with
the blob before and after (renames followed, as `git blame` follows them); it reads no file's content
except where git checks a rename's similarity. Which lines each change touched is asked later, and
only for the changes that can still date a chunk (``blob_pair_diffs``): most of git's diff work in a
`git log -p` went to files already dated or gone from the head.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field

RunLog = Callable[[list[str]], Iterable[bytes]]
"""Runs `git log` with the given arguments and yields its output piece by piece."""

_HEADER = 1
"""Byte that starts a commit's record (``--format=%x01%ct``)."""


@dataclass(frozen=True, slots=True)
class BlobChange:
    """One first-parent commit's change to a followed file."""

    when: int
    """Its committer time (epoch seconds)."""
    old_blob: str | None
    """The file's blob before it; None where the commit created the file (nothing older matters)."""
    new_blob: str
    """The file's blob after it."""


@dataclass
class FileChanges:
    """A head file's changes, newest first, as far as the walk has read."""

    changes: list[BlobChange] = field(default_factory=list)
    ended: bool = False
    """True once its creation is read: no older change exists."""


class FirstParentChanges:
    """Reads the first-parent changes of many head files in one newest-first ``git log --raw -M`` walk.

    Args:
        head: The commit whose files are followed.
        paths: The head's files.
        max_bytes: Log output read at most (older history is left unread).
    """

    def __init__(self, head: str, paths: Iterable[str], *, max_bytes: int) -> None:
        self._head = head
        self.files = {path: FileChanges() for path in paths}
        """Head path -> its changes."""
        self._current = {path.encode("utf-8", "surrogateescape"): changes for path, changes in self.files.items()}
        """Path in the version being stepped over -> its head file's changes (created files leave)."""
        self._max_bytes = max_bytes
        self.commits_read = 0
        self.bytes_read = 0
        self.complete = False
        """True once the walk read the history to its start, or every file's creation."""

    def arguments(self, pathspecs: list[str]) -> list[str]:
        """The `git log` arguments (every option the parse relies on is given: a repository's config is read)."""
        return [
            "log", "--first-parent", "--diff-merges=first-parent", "--raw", "-M", "-z", "--no-abbrev", "--root",
            "--no-show-signature", "--no-ext-diff", "--no-textconv", "--no-color", "--format=%x01%ct",
            self._head, "--", *pathspecs,
        ]  # fmt: skip

    def walk(self, run_log: RunLog, pathspecs: list[str]) -> Generator[None, None, None]:
        """Walk the history a piece at a time: yields after each piece is read (closing it stops git).

        It ends at the history's start, once every file's creation is read, or at the byte budget.
        """
        log = run_log(self.arguments(pathspecs))
        fields: list[bytes] = []
        tail = b""
        try:
            for piece in log:
                self.bytes_read += len(piece)
                parts = (tail + piece).split(b"\0")
                tail = parts.pop()  # the last field may still be arriving
                fields.extend(parts)
                del fields[: self._take(fields)]
                if not self._current:
                    self.complete = True
                    return
                if self.bytes_read > self._max_bytes:
                    return
                yield
            fields.append(tail)
            self._take(fields, final=True)
            self.complete = True
        finally:
            close = getattr(log, "close", None)
            if close is not None:
                close()  # a walk left unread is stopped now, not when it is collected

    def _take(self, fields: list[bytes], *, final: bool = False) -> int:
        """Read the whole records at the start of ``fields``; returns how many fields were used."""
        at, count = 0, len(fields)
        while at < count:
            field_ = fields[at]
            if field_[:1] == b"\x01":
                self._when = int(field_[1:])
                self.commits_read += 1
                at += 1
                continue
            meta = field_.lstrip(b"\n")
            if not meta.startswith(b":"):
                at += 1  # the empty field after a commit without changes
                continue
            status = meta[meta.rfind(b" ") + 1 :][:1]
            names = 2 if status in (b"R", b"C") else 1
            if at + names >= count and not final:
                break  # its paths are still arriving
            paths = fields[at + 1 : at + 1 + names]
            at += 1 + names
            if len(paths) == names:
                self._record(meta, status, paths)
        return at

    _when = 0

    def _record(self, meta: bytes, status: bytes, paths: list[bytes]) -> None:
        new = paths[-1]
        changes = self._current.get(new)
        if changes is None or status == b"C":
            return
        parts = meta.split(b" ")
        old_blob, new_blob = parts[2].decode("ascii"), parts[3].decode("ascii")
        if status == b"A" or parts[0].lstrip(b":") not in _REGULAR_FILE_MODES:
            # Before this commit the path was no regular file (a submodule's commit, a symlink's
            # target): its text starts here, as if the file were added.
            changes.changes.append(BlobChange(self._when, None, new_blob))
            changes.ended = True
            del self._current[new]
            return
        if old_blob != new_blob:
            changes.changes.append(BlobChange(self._when, old_blob, new_blob))
        if status == b"R":
            del self._current[new]  # before this commit it had its old name
            self._current[paths[0]] = changes


_REGULAR_FILE_MODES = frozenset({b"100644", b"100755"})
"""Modes of a blob holding a file's text; a symlink's (120000) holds its target, a submodule's
(160000) names a commit of another repository."""

_RENAMED_ACROSS = ({"js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts"},)
"""Suffixes a file commonly changes between by a rename (a JavaScript to TypeScript migration): git
sees a rename only when both names match the pathspecs, so the siblings of a head suffix are logged too."""


def suffix_pathspecs(paths: Iterable[str]) -> list[str]:
    """Suffix globs for the files (a handful of patterns is far cheaper per commit than thousands of paths).

    Args:
        paths: The followed head files.

    Returns:
        Pathspecs for `git log`.
    """
    specs = set()
    for path in paths:
        name = path.rsplit("/", 1)[-1]
        if "." not in name.lstrip("."):
            specs.add(f":(literal){path}")
            continue
        suffix = name.rsplit(".", 1)[-1]
        siblings = next((family for family in _RENAMED_ACROSS if suffix in family), {suffix})
        specs.update(f"*.{sibling}" for sibling in siblings)
    return sorted(specs)
