"""When each symbol's own lines last changed: ``git blame`` once per changed file, carried forward after.

A file's date says when *something* in it changed; a definition can be years older than its file. For a
repository read in place (full history on disk) the run blames each changed code file once, at the
head, and a chunk gets the newest committer date among its own lines ("blame"). Unchanged files are
never blamed again: their points keep their dates. When a file changes, a chunk whose text equals one
of the file's earlier chunks keeps that chunk's date ("carried"), so on a mirror without history (a
blob-less clone, where blame would fetch every old blob) only the symbols that really changed take the
file's new date ("file"). Unknown stays None, never "now". See docs/indexing.md.

Blame is done for all of a run's code files at once, in one pass: `HistoryLineDates` follows every head
line back along the head's first parents until the commit that added it (renames followed), and a line
takes that commit's committer time. It is `git blame --first-parent`, for all files at once: a line
merged from another branch takes the merge's date (when it reached this branch). First one
`git log --raw` walk lists each file's changes, newest first, with its blob before and after (no diff:
``first_parent_changes``); then every file steps back over its own changes. The commit that created a
file dates all its lines still undated without a diff; any other change is diffed by git itself, the
same diff blame runs, for just that pair of blobs (``blob_pair_diffs``). A chunk only needs its newest
line's date and each file steps back newest first, so a chunk is dated by the first change that touches
one of its lines: each parsed file tells the pass its chunks' line spans, a file whose chunks all have a
date is dropped (its dates are final, and the run can write it), and no older change of it is diffed. A
file is stepped back only once it has told its spans, and the walk is read alongside, only as far as a
told file's next change needs it (git is stopped once every file is dated). A time and byte budget
bounds the pass; lines it did not reach are older than every line it did, so a chunk's newest dated line
still dates it.
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
from typing import Protocol

from sextant.chunkstore import ChunkPayload, SymbolDateSource
from sextant.gitsource.access import RepoSource, git_environment, secrets_of
from sextant.gitsource.commit_dates import iso_from_epoch
from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.git_process import stream_git
from sextant.gitsource.mirror import RepoMirror
from sextant.indexer.blob_pair_diffs import BlobPairDiffs, Hunk
from sextant.indexer.first_parent_changes import BlobChange, FirstParentChanges, RunLog, suffix_pathspecs
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


_NO_LINE = -1
_PAST_EVERY_LINE = 1 << 62
_WALK_ENDED = object()


class _FileLines:
    """One head file followed back through history: which head line each line of the version stepped over is."""

    __slots__ = ("created_at", "dated", "known", "longest", "next_change", "rest", "settled", "spans")

    def __init__(self) -> None:
        self.known: list[int] = []
        """Head line index of each of the version's first lines (_NO_LINE: not a head line)."""
        self.rest = 0
        """Head line index of the first line after `known`: beyond it the version equals the head."""
        self.dated: dict[int, int] = {}
        """Head line index -> committer time of the commit that added it."""
        self.spans: list[tuple[int, int]] | None = None
        """Head line ranges (start, end exclusive) of its chunks that have no dated line yet, in order of
        their start; None: not told."""
        self.longest = 0
        """Lines of its longest chunk: a chunk holding a line starts less than this many lines before it."""
        self.next_change = 0
        """Index of the next (older) change to step back over."""
        self.created_at = 0
        """Time of the commit that created the file, once stepped over (it dates the lines from `rest` on)."""
        self.settled = threading.Event()
        """Set once its dates can no longer change (every chunk dated, or the pass ended)."""

    def apply(self, hunks: list[Hunk], when: int) -> list[int]:
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

    def created(self, when: int) -> list[int]:
        """Step back over the commit that created the file: every head line not dated yet is its own.

        Returns:
            The head lines dated by this commit among the version's first lines (those from `rest` on
            are dated through `created_at`).
        """
        dated = self.dated
        newly = [line for line in self.known if line != _NO_LINE and line not in dated]
        for line in newly:
            dated[line] = when
        self.created_at = when
        if self.spans is not None:
            self.spans = []  # every line has a date now
        return newly

    def dates_of(self, line_count: int) -> list[int]:
        """Each of the head's first ``line_count`` lines' committer time (0: not found)."""
        beyond = min(self.rest, line_count)
        times = [0] * beyond + [self.created_at] * (line_count - beyond)
        for line, when in self.dated.items():
            if line < line_count:
                times[line] = when
        return times

    def want(self, spans: list[tuple[int, int]]) -> None:
        """Learn its chunks' line ranges; those with a line dated already are settled."""
        dated = self.dated
        self.longest = max((end - start for start, end in spans), default=0)
        if not dated:
            self.spans = sorted(spans)  # told before any change was stepped over: the usual case
            return
        self.spans = sorted(
            (start, end) for start, end in spans if not any(line in dated for line in range(start, end))
        )

    def settle(self, newly: list[int]) -> None:
        """Drop the chunks that got a dated line (the newest dates come first: theirs is final)."""
        if not self.spans or not newly:
            return
        newly.sort()
        spans = self.spans
        # Only chunks starting from a longest chunk before the first dated line to the last can hold one.
        low = bisect.bisect_left(spans, (newly[0] - self.longest + 1,))
        high = bisect.bisect_right(spans, (newly[-1], _PAST_EVERY_LINE))
        count, first_at_or_after = len(newly), bisect.bisect_left
        kept = spans[:low]
        for span in spans[low:high]:
            at = first_at_or_after(newly, span[0])
            if at == count or newly[at] >= span[1]:
                kept.append(span)  # no line of this chunk was dated by this commit
        if len(kept) < high:
            kept += spans[high:]
            self.spans = kept

    @property
    def done(self) -> bool:
        """Every chunk has its date: older history cannot change it."""
        return self.spans is not None and not self.spans


class PairDiffs(Protocol):
    """Git's -U0 hunks of blob pairs (``BlobPairDiffs``)."""

    bytes_read: int
    pairs_diffed: int

    def prepare(self, blobs: Iterable[str]) -> None: ...

    def prepared(self, blob: str) -> bool: ...

    def hunks(self, pairs: Sequence[tuple[str, str]]) -> list[list[Hunk]]: ...

    def close(self) -> None: ...


class HistoryLineDates:
    """Per-line committer times of many files at one head, from their first-parent history.

    Two steps. One ``git log --raw`` walk (``first_parent_changes``) lists, newest first, the commits
    that changed each file and its blob before and after; it diffs nothing. Then each file steps back
    over its own changes, newest first: a change that created the file dates every line still undated
    (no diff: a file of one commit costs nothing), any other is diffed by git (``blob_pair_diffs``), all
    files' next changes in one batch. A file's chunks are told with ``want`` as the file is parsed; once
    every chunk has a dated line its dates are final (older history can only date older lines), it is
    diffed no further, and ``dates`` returns at once. Only the changes that can still date a chunk are
    diffed: a `git log -p` of the same history diffed about twice as many.

    Args:
        run_log: Runs `git log`.
        start_diffs: Starts the blob-pair differ (called once the walk is read, only when a diff is needed).
        head: The commit whose lines are dated.
        paths: The head's files to date.
        max_bytes: Git output read at most (older history is left unread).
    """

    def __init__(
        self,
        run_log: RunLog,
        start_diffs: Callable[[], PairDiffs],
        head: str,
        paths: Iterable[str],
        *,
        max_bytes: int,
    ) -> None:
        self._run_log = run_log
        self._start_diffs = start_diffs
        self._head = head
        self._files = {path: _FileLines() for path in paths}
        self._max_bytes = max_bytes
        self._told: queue.SimpleQueue[tuple[str, list[tuple[int, int]]] | None] = queue.SimpleQueue()
        self._all_told = False
        self._active = set(self._files)
        """Files whose dates are not final yet (one is stepped back only once it has told its spans)."""
        self._stopped = threading.Event()
        self._failed = False
        self._reached_all = True
        """False once a file ran out of read history before its creation (a budget or a shallow history)."""
        self.complete = False
        """True once every date is final: each file was followed to its creation or its chunks were all dated."""
        self.commits_read = 0
        self.pairs_diffed = 0
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
            self.complete = self._walk_and_date()
        except GitSourceError as error:
            logger.warning("symbol dates: history read failed, older lines keep no date: %s", error)
        except Exception:  # a bug here must cost the dates, never the run
            self._failed = True
            logger.warning("symbol dates: the history pass failed, using file dates", exc_info=True)
        finally:
            for lines in self._files.values():
                lines.settled.set()
            logger.info(
                "symbol dates: %d files from %d commits, %d file diffs (%d bytes of history, %s),"
                " %.2f s of CPU reading it",
                len(self._files), self.commits_read, self.pairs_diffed, self.bytes_read,
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
        return lines.dates_of(line_count)

    def _walk_and_date(self) -> bool:
        """Walk the history while stepping the told files back; True when every date is final."""
        self._take_told()
        if not self._active:
            return True
        walk = FirstParentChanges(self._head, self._files, max_bytes=self._max_bytes)
        pieces = walk.walk(self._run_log, suffix_pathspecs(self._files))
        walking = True
        diffs: PairDiffs | None = None
        horizon = PREPARED_CHANGES
        try:
            while self._active:
                if self._stopped.is_set():
                    return False
                self._take_told(wait=not walking)
                ready = self._ready(walk, walking=walking)
                if not ready:
                    if walking:  # the walk is read only as far as a told file needs it
                        walking = next(pieces, _WALK_ENDED) is not _WALK_ENDED
                        self.commits_read, self.bytes_read = walk.commits_read, walk.bytes_read
                    continue
                pairs = self._next_changes(walk, ready)
                if not pairs:
                    continue
                if diffs is None:
                    diffs = self._start_diffs()
                if not all(
                    diffs.prepared(change.old_blob or "") and diffs.prepared(change.new_blob) for _, change in pairs
                ):
                    ahead = max(PREPARED_CHANGES, min(horizon, MOST_PREPARED_PAIRS // len(ready)))
                    diffs.prepare(self._next_blobs(walk, ready, ahead))
                    horizon = min(2 * horizon, MOST_PREPARED_CHANGES)
                found = diffs.hunks([(change.old_blob or "", change.new_blob) for _, change in pairs])
                self.pairs_diffed, self.bytes_read = diffs.pairs_diffed, walk.bytes_read + diffs.bytes_read
                for (lines, change), hunks in zip(pairs, found, strict=True):
                    lines.settle(lines.apply(hunks, change.when))
                self._retire_done(ready)
                if self.bytes_read > self._max_bytes:
                    logger.warning("symbol dates: history read stopped at %d bytes", self.bytes_read)
                    return False
            return self._reached_all
        finally:
            pieces.close()
            self.commits_read = walk.commits_read
            if diffs is not None:
                diffs.close()

    def _ready(self, walk: FirstParentChanges, *, walking: bool) -> list[str]:
        """The told files whose next change the walk has read; those with no change left are retired."""
        ready = []
        for path in sorted(self._active):
            lines = self._files[path]
            if lines.spans is None:
                continue  # not told yet: its spans decide what is diffed
            history = walk.files[path]
            if lines.next_change < len(history.changes):
                ready.append(path)
            elif not walking:
                self._reached_all = self._reached_all and walk.complete
                self._retire(path)  # no older change was read: what is undated stays so
        return ready

    def _next_changes(self, walk: FirstParentChanges, ready: list[str]) -> list[tuple[_FileLines, BlobChange]]:
        """Step each ready file over its next change; those that need a diff are returned."""
        pairs: list[tuple[_FileLines, BlobChange]] = []
        for path in ready:
            lines = self._files[path]
            change = walk.files[path].changes[lines.next_change]
            lines.next_change += 1
            if change.old_blob is None:
                lines.settle(lines.created(change.when))
                self._retire(path)  # before this commit the file did not exist
            else:
                pairs.append((lines, change))
        return pairs

    def _next_blobs(self, walk: FirstParentChanges, ready: list[str], count: int) -> Iterator[str]:
        """The blobs of each ready file's next ``count`` changes (from the one being diffed now)."""
        for path in ready:
            start = self._files[path].next_change - 1
            for change in walk.files[path].changes[start : start + count]:
                if change.old_blob is not None:
                    yield change.old_blob
                    yield change.new_blob

    def _take_told(self, *, wait: bool = False) -> None:
        """Take the spans told so far; after ``wanted_all`` the files never told are no longer followed.

        With ``wait`` (the walk is read), block until a file is told when no told file is left to step.
        """
        while True:
            try:
                told = self._told.get_nowait()
            except queue.Empty:
                if not wait or self._all_told or self._stopped.is_set() or self._any_told():
                    break
                try:
                    told = self._told.get(timeout=0.2)  # woken by the next file told
                except queue.Empty:
                    continue
            if told is None:
                self._all_told = True
                continue
            lines = self._files.get(told[0])
            if lines is not None and lines.spans is None:
                lines.want(told[1])
                if lines.done:
                    self._retire(told[0])  # no chunk to date
        if self._all_told:
            for path in [path for path in self._active if self._files[path].spans is None]:
                self._retire(path)

    def _any_told(self) -> bool:
        return any(self._files[path].spans is not None for path in self._active)

    def _retire_done(self, stepped: list[str]) -> None:
        """Retire the files just stepped whose chunks all have a date (no other file's changed)."""
        for path in stepped:
            if self._files[path].done:
                self._retire(path)

    def _retire(self, path: str) -> None:
        """Stop following a file: its dates are final."""
        self._active.discard(path)
        self._files[path].settled.set()


PREPARED_CHANGES = 16
"""Changes per file whose trees are packed ahead the first time; each later pack looks twice as far ahead.

Git searches every pack of the scratch directory for each tree it is not in, so the number of packs
costs more than a few trees made in vain: packs made every 16 batches (99 packs on celery's history)
cost git 0.4 s more than one pack would."""
MOST_PREPARED_CHANGES = 1024
"""The farthest a pack looks ahead."""
MOST_PREPARED_PAIRS = 1 << 14
"""Changes one pack looks ahead at most, all files together (~10 MB of trees while made): many files
with long histories in step together must not make millions of trees ahead."""

LOG_MALLOC_TUNING = "glibc.malloc.trim_threshold=268435456:glibc.malloc.mmap_threshold=33554432"
"""glibc settings for the history pass's git: keep freed blob buffers instead of handing them back to
the kernel after every diff (git frees and reallocates them for each pair of versions, and each trim
costs page faults to re-zero the memory: about a fifth of git's CPU on flask's history)."""


def history_line_dates(
    mirrors: RepoMirror, source: RepoSource, head: str, paths: Iterable[str]
) -> HistoryLineDates | None:
    """The line dates of a run's files at its head, read from the repository's history.

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
    git_dir = mirrors.mirror_dir(source)

    def run_log(args: list[str]) -> Iterator[bytes]:
        secrets = secrets_of(source)
        with stream_git(args, env=env, secrets=secrets, timeout=HISTORY_READ_SECONDS, git_dir=git_dir) as output:
            yield from output.chunks()  # closing the generator early stops git with it

    def start_diffs() -> BlobPairDiffs:
        return BlobPairDiffs(git_dir, env, timeout=HISTORY_READ_SECONDS)

    return HistoryLineDates(run_log, start_diffs, head, wanted, max_bytes=HISTORY_READ_BYTES)


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
            own = epochs[max(chunk.start_line - 1, 0) : chunk.end_line]
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
