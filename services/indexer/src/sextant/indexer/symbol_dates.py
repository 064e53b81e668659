"""When each symbol's own lines last changed: ``git blame`` once per changed file, carried forward after.

A file's date says when *something* in it changed; a definition can be years older than its file. For a
repository read in place (full history on disk) the run blames each changed code file once, at the
head, and a chunk gets the newest committer date among its own lines ("blame"). Unchanged files are
never blamed again: their points keep their dates. When a file changes, a chunk whose text equals one
of the file's earlier chunks keeps that chunk's date ("carried"), so on a mirror without history (a
blob-less clone, where blame would fetch every old blob) only the symbols that really changed take the
file's new date ("file"). Unknown stays None, never "now". See docs/indexing.md.

Blame is done for all of a run's code files at once, in one pass: `HistoryLineDates` reads one
newest-first `git log -p -U0` of the head's first-parent history, limited to those files, and follows
every head line back through the hunks until the commit that added it (renames followed); a line
takes that commit's committer time. One git process for the run instead of one `git blame` per
file (click: 0.4 s of CPU instead of 2.0 s). It is blame along the branch indexed: a line merged
from another branch takes the merge's date (when it reached this branch), and where code moved,
git's diff may pair lines differently from blame's. A time and byte budget bounds the pass; lines
it did not reach are older than every line it did, so a chunk's newest dated line still dates it.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from sextant.chunkstore import ChunkPayload, SymbolDateSource
from sextant.gitsource.access import RepoSource, git_environment, secrets_of
from sextant.gitsource.commit_dates import iso_from_epoch
from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.git_process import stream_git
from sextant.gitsource.mirror import RepoMirror
from sextant.parsing import Chunk

logger = logging.getLogger(__name__)

HISTORY_READ_SECONDS = 300.0
"""Limit of the history pass; past it the lines not reached keep no date of their own."""
HISTORY_READ_BYTES = 1 << 30
"""Log output read at most: older history is left unread (its lines are older than every dated one)."""


@dataclass(frozen=True)
class SymbolDate:
    """A chunk's own date and how it was found."""

    at: str | None
    source: SymbolDateSource | None


def text_key(text: str) -> str:
    """The key chunks are matched by across versions of a file (their exact text).

    Args:
        text: A chunk's text.

    Returns:
        A short digest.
    """
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()


def earlier_dates(payloads: Iterable[ChunkPayload]) -> dict[str, SymbolDate]:
    """Dates of a file's stored chunks by text key, for carrying them into its next version.

    Args:
        payloads: The file's stored payloads.

    Returns:
        text key -> date; only chunks whose date is known.
    """
    dates: dict[str, SymbolDate] = {}
    for payload in payloads:
        at = payload.symbol_last_modified_at
        if isinstance(at, str):
            dates[text_key(payload.text)] = SymbolDate(at, payload.symbol_date_source)
    return dates


_LOG_RECORD = re.compile(
    rb"^(?:\0(?P<time>\d+)$|diff --git (?P<paths>.*)$|(?P<created>new file mode)"
    rb"|@@ -\d+(?:,(?P<removed>\d+))? \+(?P<start>\d+)(?:,(?P<added>\d+))? @@)",
    re.MULTILINE,
)


class _FileLines:
    """One head file followed back through history: which head line each line of the current version is."""

    def __init__(self) -> None:
        self.known: list[int] = []
        """Head line index of each of the version's first lines (-1: not a head line)."""
        self.rest = 0
        """Head line index of the first line after `known`: beyond it the version equals the head."""
        self.dated: dict[int, int] = {}
        """Head line index -> committer time of the commit that added it."""

    def apply(self, hunks: list[tuple[int, int, int]], when: int) -> None:
        """Step back over one commit: its added lines get its time, its removed lines come back."""
        for removed, start, added in reversed(hunks):  # bottom-up: earlier line numbers stay valid
            first = start - 1 if added else start  # `+N,0` names the line before an empty range
            end = first + added
            if end > len(self.known):
                grow = end - len(self.known)
                self.known.extend(range(self.rest, self.rest + grow))
                self.rest += grow
            for head_line in self.known[first:end]:
                if head_line >= 0 and head_line not in self.dated:
                    self.dated[head_line] = when
            self.known[first:end] = [-1] * removed


class HistoryLineDates:
    """Per-line committer times of many files at one head, from one pass over the history.

    Args:
        run_log: Runs `git log` with the given arguments and yields its output piece by piece.
        head: The commit whose lines are dated.
        paths: The head's files to date.
        max_bytes: Log output read at most (older history is left unread).
    """

    def __init__(
        self, run_log: Callable[[list[str]], Iterable[bytes]], head: str, paths: Iterable[str], *, max_bytes: int
    ) -> None:
        self._run_log = run_log
        self._head = head
        self._files = {path: _FileLines() for path in paths}
        self._max_bytes = max_bytes
        self._stopped = threading.Event()
        self.complete = False
        """True once the whole history was read (else the budget or an error stopped it)."""

    def read(self) -> None:
        """Read the history (once); an error or the budget leaves the dates found so far."""
        current = dict(self._files)  # path in the version being stepped over -> its head file
        args = [
            "log", "--first-parent", "--diff-merges=first-parent", "-p", "-U0", "-M", "--no-color",
            "--no-ext-diff", "--no-textconv", "--format=%x00%ct", self._head, "--", *_pathspecs(self._files),
        ]  # fmt: skip
        pending = b""
        read = 0
        log = self._run_log(args)
        try:
            for piece in log:
                if self._stopped.is_set():
                    return
                read += len(piece)
                text = pending + piece
                cut = text.rfind(b"\n\0")  # whole commits only: the last one may still be arriving
                if cut < 0:
                    pending = text
                    continue
                self._step(text[: cut + 1], current)
                pending = text[cut + 1 :]
                if read > self._max_bytes:
                    logger.warning("symbol dates: history read stopped at %d bytes", read)
                    return
            self._step(pending, current)
            self.complete = True
        except GitSourceError as error:
            logger.warning("symbol dates: history read failed, older lines keep no date: %s", error)
        finally:
            close = getattr(log, "close", None)
            if close is not None:
                close()  # a log left unread is stopped now, not when it is collected

    def stop(self) -> None:
        """Stop reading (the run ended early): the dates found so far stay."""
        self._stopped.set()

    def dates(self, path: str, line_count: int) -> list[int] | None:
        """One committer time per line of a head file (0 where none was found), or None for another file.

        Args:
            path: A file given at construction.
            line_count: Its lines at the head.

        Returns:
            The times, or None.
        """
        lines = self._files.get(path)
        if lines is None:
            return None
        return [lines.dated.get(index, 0) for index in range(line_count)]

    def _step(self, text: bytes, current: dict[str, _FileLines]) -> None:
        when = 0
        lines: _FileLines | None = None
        old = new = ""
        hunks: list[tuple[int, int, int]] = []
        created = False

        def finish() -> None:
            if lines is None:
                return
            lines.apply(hunks, when)
            if created:
                current.pop(new, None)  # before this commit the file did not exist
            elif old != new:
                current[old] = current.pop(new)  # before this commit it had its old name

        for match in _LOG_RECORD.finditer(text):
            if match["time"] is not None:
                finish()
                lines, when = None, int(match["time"])
            elif match["paths"] is not None:
                finish()
                old, new = _diff_paths(match["paths"])
                lines, hunks, created = current.get(new), [], False
            elif match["created"] is not None:
                created = True
            elif lines is not None and match["start"] is not None:
                removed, added = match["removed"], match["added"]
                hunks.append(
                    (1 if removed is None else int(removed), int(match["start"]), 1 if added is None else int(added))
                )
        finish()


def _diff_paths(header: bytes) -> tuple[str, str]:
    """(old, new) path of a `diff --git a/… b/…` header; empty for a quoted one (its file keeps no dates)."""
    found = re.fullmatch(rb"a/(.*) b/(.*)", header)
    if found is None:
        return "", ""
    return found[1].decode("utf-8", "surrogateescape"), found[2].decode("utf-8", "surrogateescape")


def _pathspecs(paths: Iterable[str]) -> list[str]:
    """Suffix globs for the files (a handful of patterns is far cheaper per commit than thousands of paths)."""
    specs = set()
    for path in paths:
        name = path.rsplit("/", 1)[-1]
        specs.add(f"*.{name.rsplit('.', 1)[-1]}" if "." in name.lstrip(".") else f":(literal){path}")
    return sorted(specs)


def history_line_dates(mirrors: RepoMirror, source: RepoSource, head: str, paths: Iterable[str]) -> HistoryLineDates:
    """The line dates of a run's files at its head, read from the repository's history in one pass.

    Args:
        mirrors: The mirror cache (a local repository is read in place).
        source: The repository.
        head: The commit indexed.
        paths: The head's code files to date.

    Returns:
        The dates, not yet read (``read`` runs the pass, within HISTORY_READ_SECONDS and HISTORY_READ_BYTES).
    """

    def run_log(args: list[str]) -> Iterator[bytes]:
        with stream_git(
            args,
            env=git_environment(source),
            secrets=secrets_of(source),
            timeout=HISTORY_READ_SECONDS,
            git_dir=mirrors.mirror_dir(source),
        ) as output:
            yield from output.chunks()  # closing the generator early stops git with it

    return HistoryLineDates(run_log, head, paths, max_bytes=HISTORY_READ_BYTES)


def chunk_dates(
    chunks: Sequence[Chunk],
    *,
    epochs: Sequence[int] | None,
    carried: Mapping[str, SymbolDate],
    file_date: str | None,
) -> list[SymbolDate]:
    """The date of each chunk of one file version.

    Args:
        chunks: The version's chunks.
        epochs: Per-line committer times from blame, or None when there is no blame (no history here).
        carried: Earlier chunks' dates by text key (``earlier_dates``).
        file_date: The file's ``last_modified_at`` (None when unknown).

    Returns:
        One SymbolDate per chunk.
    """
    dates: list[SymbolDate] = []
    for chunk in chunks:
        if epochs:
            own = [epochs[n - 1] for n in range(chunk.start_line, chunk.end_line + 1) if 0 < n <= len(epochs)]
            newest = max((epoch for epoch in own if epoch), default=0)
            if newest:
                dates.append(SymbolDate(iso_from_epoch(newest), "blame"))
                continue
        earlier = carried.get(text_key(chunk.text))
        if earlier is not None:
            dates.append(SymbolDate(earlier.at, "carried"))
            continue
        dates.append(SymbolDate(file_date, "file" if file_date is not None else None))
    return dates
