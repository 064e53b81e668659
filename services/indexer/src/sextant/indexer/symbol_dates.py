"""When each symbol's own lines last changed: ``git blame`` once per changed file, carried forward after.

A file's date says when *something* in it changed; a definition can be years older than its file. For a
repository read in place (full history on disk) the run blames each changed code file once, at the
head, and a chunk gets the newest committer date among its own lines ("blame"). Unchanged files are
never blamed again: their points keep their dates. When a file changes, a chunk whose text equals one
of the file's earlier chunks keeps that chunk's date ("carried"), so on a mirror without history (a
blob-less clone, where blame would fetch every old blob) only the symbols that really changed take the
file's new date ("file"). Unknown stays None, never "now". See docs/indexing.md.

Blame is done for all of a run's code files at once, in one pass: `HistoryLineDates` reads one
newest-first `git log -p -U0` of the head's first-parent history, limited to those files' suffixes,
and follows every head line back through the hunks until the commit that added it (renames followed);
a line takes that commit's committer time. It is `git blame --first-parent`, for all files at once: a
line merged from another branch takes the merge's date (when it reached this branch). A chunk only
needs its newest line's date, and the pass reads newest first, so a chunk is dated by the first commit
that touches one of its lines: each parsed file tells the pass its chunks' line spans, a file whose
chunks all have a date is dropped (its dates are final, and the run can write it), and git is stopped
once no file is left. Only the diff headers of followed files are read (byte searches, no regular
expression over the log). A time and byte budget bounds the pass; lines it did not reach are older
than every line it did, so a chunk's newest dated line still dates it.
"""

from __future__ import annotations

import bisect
import hashlib
import logging
import queue
import threading
import time
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


_COMMIT = b"\n\0"
"""Where a commit's record starts in the log (``--format=%x00%ct``)."""
_SECTION = b"\ndiff --git "
_HUNK = b"\n@@ -"
_CREATED = b"\nnew file mode "
_NO_LINE = -1


class _FileLines:
    """One head file followed back through history: which head line each line of the current version is."""

    __slots__ = ("dated", "known", "name", "rest", "settled", "spans")

    def __init__(self, path: str) -> None:
        self.name = path.encode("utf-8", "surrogateescape")
        """Its path in the version being stepped over, as the log writes it."""
        self.known: list[int] = []
        """Head line index of each of the version's first lines (_NO_LINE: not a head line)."""
        self.rest = 0
        """Head line index of the first line after `known`: beyond it the version equals the head."""
        self.dated: dict[int, int] = {}
        """Head line index -> committer time of the commit that added it."""
        self.spans: list[tuple[int, int]] | None = None
        """Head line ranges (start, end exclusive) of its chunks that have no dated line yet; None: not told."""
        self.settled = threading.Event()
        """Set once its dates can no longer change (every chunk dated, or the pass ended)."""

    def apply(self, hunks: list[tuple[int, int, int]], when: int) -> list[int]:
        """Step back over one commit: its added lines get its time, its removed lines come back.

        Returns:
            The head lines dated by this commit.
        """
        known, dated = self.known, self.dated
        newly: list[int] = []
        for removed, start, added in reversed(hunks):  # bottom-up: earlier line numbers stay valid
            first = start - 1 if added else start  # `+N,0` names the line before an empty range
            end = first + added
            if end > len(known):
                grow = end - len(known)
                known.extend(range(self.rest, self.rest + grow))
                self.rest += grow
            for head_line in known[first:end]:
                if head_line != _NO_LINE and head_line not in dated:
                    dated[head_line] = when
                    newly.append(head_line)
            known[first:end] = [_NO_LINE] * removed
        return newly

    def want(self, spans: list[tuple[int, int]]) -> None:
        """Learn its chunks' line ranges; those with a line dated already are settled."""
        dated = self.dated
        self.spans = [(start, end) for start, end in spans if not any(line in dated for line in range(start, end))]

    def settle(self, newly: list[int]) -> None:
        """Drop the chunks that got a dated line (the newest dates come first: theirs is final)."""
        if not self.spans or not newly:
            return
        newly.sort()
        count, first_at_or_after = len(newly), bisect.bisect_left
        kept = []
        for span in self.spans:
            at = first_at_or_after(newly, span[0])
            if at == count or newly[at] >= span[1]:
                kept.append(span)  # no line of this chunk was dated by this commit
        self.spans = kept

    @property
    def done(self) -> bool:
        """Every chunk has its date: older history cannot change it."""
        return self.spans is not None and not self.spans


RunLog = Callable[[list[str]], Iterable[bytes]]
"""Runs `git log` with the given arguments and yields its output piece by piece."""


class HistoryLineDates:
    """Per-line committer times of many files at one head, from one newest-first pass over the history.

    A file's chunks are told with ``want`` as the file is parsed. Once every chunk of a file has a
    dated line its dates are final (the pass reads newest first: older history can only date lines
    older still), its later diffs are skipped, and ``dates`` returns at once. When no file is left to
    follow (each is final, created, or never to be asked for after ``wanted_all``), git is stopped: the
    oldest history is read only as far as the oldest chunk needs.

    Args:
        run_log: Runs `git log`.
        head: The commit whose lines are dated.
        paths: The head's files to date.
        max_bytes: Log output read at most (older history is left unread).
    """

    def __init__(self, run_log: RunLog, head: str, paths: Iterable[str], *, max_bytes: int) -> None:
        self._run_log = run_log
        self._head = head
        self._files = {path: _FileLines(path) for path in paths}
        self._current = {path.encode("utf-8", "surrogateescape"): lines for path, lines in self._files.items()}
        """Path (as the log writes it) in the version being stepped over -> its head file."""
        self._max_bytes = max_bytes
        self._told: queue.SimpleQueue[tuple[str, list[tuple[int, int]]] | None] = queue.SimpleQueue()
        self._all_told = False
        self._stopped = threading.Event()
        self._failed = False
        self.complete = False
        """True once every date is final: the history was read to its start, or no file was left to follow."""
        self.commits_read = 0
        self.bytes_read = 0

    def want(self, path: str, spans: Iterable[tuple[int, int]]) -> None:
        """Say which lines' dates a file's chunks need (safe from any thread).

        Args:
            path: A file given at construction.
            spans: Each chunk's first and last line (1-based, inclusive).
        """
        self._told.put((path, [(start - 1, end) for start, end in spans]))

    def wanted_all(self) -> None:
        """No more ``want`` calls: files never wanted are no longer followed."""
        self._told.put(None)

    def read(self) -> None:
        """Read the history (once); an error or the budget leaves the dates found so far."""
        started = time.thread_time()
        try:
            self.complete = self._walk()
        except GitSourceError as error:
            logger.warning("symbol dates: history read failed, older lines keep no date: %s", error)
        except Exception:  # a bug here must cost the dates, never the run
            self._failed = True
            logger.warning("symbol dates: the history pass failed, using file dates", exc_info=True)
        finally:
            for lines in self._files.values():
                lines.settled.set()
            logger.info(
                "symbol dates: %d files from %d commits (%d bytes of history, %s), %.2f s of CPU reading it",
                len(self._files), self.commits_read, self.bytes_read,
                "complete" if self.complete else "incomplete", time.thread_time() - started,
            )  # fmt: skip

    def stop(self) -> None:
        """Stop reading (the run ended early): the dates found so far stay."""
        self._stopped.set()

    def dates(self, path: str, line_count: int) -> list[int] | None:
        """One committer time per line of a head file (0 where none was found), or None for another file.

        Waits until the file's dates are final (see the class docstring).

        Args:
            path: A file given at construction.
            line_count: Its lines at the head.

        Returns:
            The times, or None (another file, or the pass failed).
        """
        lines = self._files.get(path)
        if lines is None:
            return None
        lines.settled.wait(2 * HISTORY_READ_SECONDS)
        if self._failed:
            return None
        dated = lines.dated
        return [dated.get(index, 0) for index in range(line_count)]

    def _walk(self) -> bool:
        """Run the log; True when it ended because nothing was left to learn."""
        self._take_told()
        if not self._current:
            return True
        # The repository's own config is read when it is read in place: every option the parse relies
        # on is given here (hunks never merged across unchanged lines, a/ b/ headers, the root's diff).
        args = [
            "log", "--first-parent", "--diff-merges=first-parent", "-p", "-U0", "--inter-hunk-context=0",
            "-M", "--root", "--no-follow", "--src-prefix=a/", "--dst-prefix=b/", "--no-color",
            "--no-ext-diff", "--no-textconv", "--format=%x00%ct", self._head, "--", *_pathspecs(self._files),
        ]  # fmt: skip
        pending = b""
        log = self._run_log(args)
        try:
            for piece in log:
                if self._stopped.is_set():
                    return False
                self.bytes_read += len(piece)
                text = pending + piece
                cut = text.rfind(_COMMIT)  # whole commits only: the last one may still be arriving
                if cut < 0:
                    pending = text
                    continue
                self._take_told()
                self._step(text, cut + 1)
                if not self._current:
                    return True  # every file's dates are final: the older history is not needed
                pending = text[cut + 1 :]
                if self.bytes_read > self._max_bytes:
                    logger.warning("symbol dates: history read stopped at %d bytes", self.bytes_read)
                    return False
            self._take_told()
            self._step(pending, len(pending))
            return True
        finally:
            close = getattr(log, "close", None)
            if close is not None:
                close()  # a log left unread is stopped now, not when it is collected

    def _take_told(self) -> None:
        while True:
            try:
                told = self._told.get_nowait()
            except queue.Empty:
                break
            if told is None:
                self._all_told = True
                continue
            lines = self._files.get(told[0])
            if lines is not None and lines.spans is None:
                lines.want(told[1])
                if lines.done:
                    self._retire(lines)
        if self._all_told:
            for lines in [lines for lines in self._current.values() if lines.spans is None]:
                self._retire(lines)

    def _retire(self, lines: _FileLines) -> None:
        """Stop following a file: its dates are final (or never asked for)."""
        if self._current.get(lines.name) is lines:
            del self._current[lines.name]
        lines.settled.set()

    def _step(self, text: bytes, end: int) -> None:
        """Step back over the whole commits in ``text[:end]`` (each starts with NUL and its time)."""
        position = text.find(b"\0", 0, end)
        while 0 <= position < end and self._current:
            following = text.find(_COMMIT, position, end)
            stop = end if following < 0 else following + 1
            self._commit(text, position, stop)
            position = stop

    def _commit(self, text: bytes, start: int, end: int) -> None:
        self.commits_read += 1
        line_end = text.find(b"\n", start, end)
        if line_end < 0:
            return
        when = int(text[start + 1 : line_end])
        section = text.find(_SECTION, line_end, end)
        while section >= 0:
            following = text.find(_SECTION, section + 1, end)
            self._file_diff(text, section, end if following < 0 else following, when)
            section = following

    def _file_diff(self, text: bytes, start: int, end: int, when: int) -> None:
        """One file's diff in a commit: only the followed files' hunks are read."""
        header_end = text.find(b"\n", start + 1, end)
        header = text[start + len(_SECTION) : end if header_end < 0 else header_end]
        old, new = _diff_paths(header, text, header_end, end)
        lines = self._current.get(new)
        if lines is None:
            return
        first_hunk = text.find(_HUNK, start + 1, end)
        created = text.find(_CREATED, start + 1, end if first_hunk < 0 else first_hunk) >= 0
        hunks: list[tuple[int, int, int]] = []
        hunk = first_hunk
        while hunk >= 0:
            hunk_end = text.find(b"\n", hunk + 1, end)
            hunks.append(_hunk_counts(text[hunk + len(_HUNK) : end if hunk_end < 0 else hunk_end]))
            hunk = text.find(_HUNK, hunk + 1, end)
        lines.settle(lines.apply(hunks, when))
        if created or lines.done:
            self._retire(lines)  # before this commit the file did not exist, or nothing older matters
        elif old != new:
            del self._current[new]  # before this commit it had its old name
            lines.name = old
            self._current[old] = lines


def _hunk_counts(header: bytes) -> tuple[int, int, int]:
    """(lines removed, first line added, lines added) of a hunk header after its ``@@ -``."""
    removed_part, _, rest = header.partition(b" +")
    added_part = rest.split(b" ", 1)[0]
    _, comma, removed = removed_part.partition(b",")
    start, comma_added, added = added_part.partition(b",")
    return (int(removed) if comma else 1, int(start), int(added) if comma_added else 1)


def _diff_paths(header: bytes, text: bytes = b"", header_end: int = -1, end: int = 0) -> tuple[bytes, bytes]:
    """(old, new) path of a `diff --git a/… b/…` header; empty for a quoted one (its file keeps no dates).

    A path may itself hold " b/" (`a/d b/x.py b/d b/x.py`), so the header is read as one path twice
    when it is, a rename by its `rename from` / `rename to` lines (in `text` from `header_end` to the
    first hunk or `end`), and only otherwise split at its last " b/".
    """
    if not header.startswith(b"a/"):
        return b"", b""
    body = header[2:]
    half = (len(body) - 3) // 2
    if len(body) % 2 and body[half : half + 3] == b" b/" and body[:half] == body[half + 3 :]:
        return body[:half], body[:half]
    if header_end >= 0:
        first_hunk = text.find(_HUNK, header_end, end)
        extended = text[header_end : end if first_hunk < 0 else first_hunk]
        old, new = _extended_value(extended, b"\nrename from "), _extended_value(extended, b"\nrename to ")
        if old is not None and new is not None:
            return old, new
    cut = header.rfind(b" b/")
    if cut < 0:
        return b"", b""
    return header[2:cut], header[cut + 3 :]


def _extended_value(extended: bytes, key: bytes) -> bytes | None:
    """The rest of the extended header line that starts with `key`; None when absent, b"" when git quoted it."""
    at = extended.find(key)
    if at < 0:
        return None
    line_end = extended.find(b"\n", at + len(key))
    value = extended[at + len(key) : line_end if line_end >= 0 else len(extended)]
    return b"" if value.startswith(b'"') else value


_RENAMED_ACROSS = ({"js", "jsx", "mjs", "cjs", "ts", "tsx", "mts", "cts"},)
"""Suffixes a file commonly changes between by a rename (a JavaScript to TypeScript migration): git
sees a rename only when both names match the pathspecs, so the siblings of a head suffix are logged too."""


def _pathspecs(paths: Iterable[str]) -> list[str]:
    """Suffix globs for the files (a handful of patterns is far cheaper per commit than thousands of paths)."""
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


LOG_MALLOC_TUNING = "glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=33554432"
"""glibc settings for the history pass's git: keep freed blob buffers instead of handing them back to
the kernel after every diff (git log -p frees and reallocates them for each pair of versions, and
each trim costs page faults to re-zero the memory: about a fifth of git's CPU on flask's history)."""


def history_line_dates(
    mirrors: RepoMirror, source: RepoSource, head: str, paths: Iterable[str]
) -> HistoryLineDates | None:
    """The line dates of a run's files at its head, read from the repository's history in one pass.

    Args:
        mirrors: The mirror cache (a local repository is read in place).
        source: The repository.
        head: The commit indexed.
        paths: The head's code files to date.

    Returns:
        The dates, not yet read (``read`` runs the pass, within HISTORY_READ_SECONDS and
        HISTORY_READ_BYTES); None when there is no file to date (no pass at all).
    """
    wanted = list(paths)
    if not wanted:
        return None
    env = git_environment(source)
    env.setdefault("GLIBC_TUNABLES", LOG_MALLOC_TUNING)

    def run_log(args: list[str]) -> Iterator[bytes]:
        with stream_git(
            args, env=env, secrets=secrets_of(source), timeout=HISTORY_READ_SECONDS, git_dir=mirrors.mirror_dir(source)
        ) as output:
            yield from output.chunks()  # closing the generator early stops git with it

    return HistoryLineDates(run_log, head, wanted, max_bytes=HISTORY_READ_BYTES)


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
