"""Git's own line diff of chosen blob pairs, many pairs through one long-lived ``git diff-tree --stdin``.

A date must equal `git blame`'s, so the lines a change touched come from git's diff (the same xdiff,
Myers with the indent heuristic, that blame runs), never from a diff of our own. Git diffs two trees,
not two blobs, so each blob is given a one-entry tree, packed into a scratch object directory that
borrows the repository's objects as an alternate: the repository read in place is never written to.
The pairs of a batch go in on standard input, followed by one line git echoes back (``#``) once the
batch is diffed; each pair's diff is found by the blob ids its ``index`` line names (``--full-index``).

On this kind of machine a system call is dear, so what costs is counted in calls: a mark after every
pair made git flush, and this side read, once per pair (celery's history: 9,344 pairs, 0.15 s of this
process); and git looks for a tree in every pack of the scratch directory before the one holding it,
so the trees are packed ahead in few packs (see ``symbol_dates``).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import signal
import struct
import subprocess
import tempfile
import threading
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

from sextant.gitsource.errors import GitSourceError, GitTimeoutError, GitUnavailableError

logger = logging.getLogger(__name__)

Hunk = tuple[int, int, int]
"""(lines removed, first line added, lines added) of one hunk, as its ``@@ -a,r +s,n @@`` header says."""

BATCH_PAIRS = 256
"""Pairs written before their diffs are read: their request (~85 bytes each) fits in the pipe's buffer,
so git never waits on a full output pipe while this side is still writing."""

_MARK = b"#\n"
_HUNK = b"\n@@ -"
_FILE = b"\ndiff --git "
_INDEX = b"\nindex "


class BlobPairDiffs:
    """A running `git diff-tree --stdin` that returns the -U0 hunks of blob pairs.

    Args:
        git_dir: The repository's git directory.
        env: The child environment.
        timeout: Seconds the process may live.
    """

    def __init__(self, git_dir: Path, env: Mapping[str, str], *, timeout: float) -> None:
        self._scratch = Path(tempfile.mkdtemp(prefix="sextant-blob-pairs-", dir=_memory_folder()))
        (self._scratch / "pack").mkdir()
        self._trees: dict[str, str] = {}
        """Blob id -> id of the one-entry tree that holds it."""
        self._unpacked: list[tuple[bytes, bytes]] = []
        """(tree id, body) of the trees not packed yet."""
        self._hash: Callable[..., Any] = hashlib.sha1
        """The repository's object hash, told by its ids' length (SHA-1 or SHA-256)."""
        self.bytes_read = 0
        self.pairs_diffed = 0
        objects = _objects_dir(git_dir)
        child_env = {
            **env,
            "GIT_OBJECT_DIRECTORY": str(self._scratch),
            "GIT_ALTERNATE_OBJECT_DIRECTORIES": _alternate_entry(objects),
        }
        args = [
            "git", "--git-dir", str(git_dir), "diff-tree", "--stdin", "-p", "-U0", "--inter-hunk-context=0",
            "--no-renames", "--indent-heuristic", "--diff-algorithm=myers", "--text", "--no-ext-diff",
            "--no-textconv", "--no-color", "--full-index",
        ]  # fmt: skip
        try:
            self._process = subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                env=child_env, start_new_session=True,
            )  # fmt: skip
        except FileNotFoundError as error:
            shutil.rmtree(self._scratch, ignore_errors=True)
            raise GitUnavailableError("git is not installed or not on PATH") from error
        self._timed_out = threading.Event()
        self._watchdog = threading.Timer(timeout, self._expire)
        self._watchdog.daemon = True
        self._watchdog.start()

    def prepare(self, blobs: Iterable[str]) -> None:
        """Pack the trees of blobs the next batches will name (fewer, larger packs: git searches each one).

        Args:
            blobs: Blob ids.
        """
        for blob in blobs:
            self._tree(blob)
        self._write_pack()

    def prepared(self, blob: str) -> bool:
        """Whether a blob's tree is made already (``prepare`` or an earlier batch)."""
        return blob in self._trees

    def hunks(self, pairs: Sequence[tuple[str, str]]) -> list[list[Hunk]]:
        """The hunks of each (old blob, new blob) pair, in order.

        Args:
            pairs: Blob ids; the two of a pair differ.

        Returns:
            One hunk list per pair.
        """
        found: list[list[Hunk]] = []
        for start in range(0, len(pairs), BATCH_PAIRS):
            batch = pairs[start : start + BATCH_PAIRS]
            request = b"".join(b"%s %s\n" % (self._tree(old).encode(), self._tree(new).encode()) for old, new in batch)
            self._write_pack()
            found.extend(_split_hunks(self._exchange(request + _MARK, 1), batch))
        self.pairs_diffed += len(pairs)
        return found

    def close(self) -> None:
        """End git and remove the scratch objects."""
        self._watchdog.cancel()
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signal.SIGKILL)
        for pipe in (self._process.stdin, self._process.stdout):
            if pipe is not None:
                with suppress(OSError):
                    pipe.close()
        self._process.wait()
        shutil.rmtree(self._scratch, ignore_errors=True)

    def _expire(self) -> None:
        self._timed_out.set()
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, signal.SIGKILL)

    def _exchange(self, request: bytes, marks: int) -> bytes:
        stdin, stdout = self._process.stdin, self._process.stdout
        if stdin is None or stdout is None:  # pragma: no cover - always pipes here
            raise GitSourceError("git diff-tree has no pipes")
        try:
            stdin.write(request)
            stdin.flush()
        except OSError as error:
            raise self._failure() from error
        output = bytearray()
        seen = 0
        while seen < marks:
            piece = os.read(stdout.fileno(), 1 << 18)
            if not piece:
                raise self._failure()
            scan_from = max(len(output) - 1, 0)
            output += piece
            seen += _marks_in(output, scan_from)
        self.bytes_read += len(output)
        return bytes(output)

    def _failure(self) -> GitSourceError:
        if self._timed_out.is_set():
            return GitTimeoutError("git diff-tree timed out")
        return GitSourceError(f"git diff-tree ended early (exit {self._process.poll()})")

    def _tree(self, blob: str) -> str:
        """The id of a tree holding only ``blob`` (packed before the batch that names it)."""
        tree = self._trees.get(blob)
        if tree is None:
            self._hash = hashlib.sha1 if len(blob) == 40 else hashlib.sha256
            body = b"100644 f\0" + bytes.fromhex(blob)
            tree = self._hash(b"tree %d\0%s" % (len(body), body)).hexdigest()
            self._trees[blob] = tree
            self._unpacked.append((bytes.fromhex(tree), body))
        return tree

    def _write_pack(self) -> None:
        """Pack the trees named since the last batch (one pack and its index: git finds a new pack on a miss)."""
        if not self._unpacked:
            return
        pack_name = write_pack(self._scratch / "pack", self._unpacked, self._hash)
        logger.debug("symbol dates: %d trees in %s", len(self._unpacked), pack_name)
        self._unpacked = []


_TREE_TYPE = 2


def write_pack(folder: Path, objects: Sequence[tuple[bytes, bytes]], hash_: Callable[..., Any]) -> str:
    """Write trees as a pack and its version-2 index into ``folder``; returns the pack's name.

    Args:
        folder: An object directory's ``pack`` folder.
        objects: (object id, tree body) of each tree, no two alike.
        hash_: The repository's object hash (``hashlib.sha1`` or ``hashlib.sha256``).

    Returns:
        The pack's file name.
    """
    pack = bytearray(b"PACK" + struct.pack(">II", 2, len(objects)))
    entries: list[tuple[bytes, int, int]] = []
    for oid, body in objects:
        offset = len(pack)
        size = len(body)
        header = bytearray([(_TREE_TYPE << 4) | (size & 0x0F)])
        size >>= 4
        while size:
            header[-1] |= 0x80
            header.append(size & 0x7F)
            size >>= 7
        packed = bytes(header) + zlib.compress(body, 0)  # stored: a tree of one entry does not shrink
        pack += packed
        entries.append((oid, zlib.crc32(packed), offset))
    pack_sum = hash_(pack).digest()
    pack += pack_sum
    entries.sort()
    fanout = [0] * 256
    for oid, _, _ in entries:
        fanout[oid[0]] += 1
    running = 0
    for index, count in enumerate(fanout):
        running += count
        fanout[index] = running
    index_data = bytearray(b"\xfftOc" + struct.pack(">I", 2) + struct.pack(">256I", *fanout))
    index_data += b"".join(oid for oid, _, _ in entries)
    index_data += struct.pack(f">{len(entries)}I", *(crc for _, crc, _ in entries))
    index_data += struct.pack(f">{len(entries)}I", *(offset for _, _, offset in entries))
    index_data += pack_sum
    index_data += hash_(index_data).digest()
    name = f"pack-{pack_sum.hex()}"
    (folder / f"{name}.pack").write_bytes(pack)
    staged = folder / f"{name}.idx.tmp"
    staged.write_bytes(index_data)
    staged.rename(folder / f"{name}.idx")  # git looks for packs by their index: it appears whole
    return name


def _memory_folder() -> str | None:
    """A folder in memory for the scratch objects when the system has one (a busy disk makes each write slow)."""
    shared = "/dev/shm"  # noqa: S108 - a private folder is made inside it
    return shared if os.path.isdir(shared) and os.access(shared, os.W_OK) else None


def _objects_dir(git_dir: Path) -> Path:
    """The object directory of a git directory (a linked worktree's is its common directory's)."""
    common = git_dir / "commondir"
    base = git_dir / common.read_text(encoding="utf-8").strip() if common.is_file() else git_dir
    return (base / "objects").resolve()


def _marks_in(output: bytearray, start: int) -> int:
    """Echoed marks (``#`` alone on a line) that end at or after ``start``."""
    count = 0
    at = output.find(_MARK, start)
    while at >= 0:
        if at == 0 or output[at - 1] == 0x0A:
            count += 1
        at = output.find(_MARK, at + 1)
    return count


def _split_hunks(output: bytes, pairs: Sequence[tuple[str, str]]) -> list[list[Hunk]]:
    """Each pair's hunks from a batch's output: its diffs come in the order of the pairs, each under an
    ``index <old>..<new>`` line naming its blobs (a diff line starts with a sign, so no header hides in one)."""
    found: list[list[Hunk]] = []
    text = b"\n" + output
    section = text.find(_FILE)
    for old, new in pairs:
        following = text.find(_FILE, section + 1) if section >= 0 else -1
        end = len(text) if following < 0 else following
        index = text.find(_INDEX, section, end) if section >= 0 else -1
        if index < 0 or not text.startswith(b"%s..%s" % (old.encode(), new.encode()), index + len(_INDEX)):
            found.append([])  # git printed no diff for this pair (its blobs hold the same text)
            continue
        hunks: list[Hunk] = []
        hunk = text.find(_HUNK, index, end)
        while hunk >= 0:
            hunks.append(hunk_counts(text, hunk + len(_HUNK)))
            hunk = text.find(_HUNK, hunk + len(_HUNK), end)
        found.append(hunks)
        section = following
    return found


_COUNTS = re.compile(rb"\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
"""A hunk header after its ``@@ -``: a count left out is 1."""


def hunk_counts(output: bytes, at: int = 0) -> Hunk:
    """(lines removed, first line added, lines added) of a hunk header after its ``@@ -``.

    Args:
        output: Diff output, e.g. ``b"3,2 +4 @@ def f():"``.
        at: Where the header's rest starts in it (matched in place: no slice per hunk).

    Returns:
        The counts.

    Raises:
        GitSourceError: No hunk header there.
    """
    counts = _COUNTS.match(output, at)
    if counts is None:
        raise GitSourceError("git diff-tree printed a hunk header it does not print")
    removed, start, added = counts.groups()
    return (1 if removed is None else int(removed), int(start), 1 if added is None else int(added))


def _alternate_entry(objects: Path) -> str:
    """One entry of GIT_ALTERNATE_OBJECT_DIRECTORIES for a folder, whatever its name holds.

    Git splits that variable at `:`, and reads an entry starting with `"` as a C-quoted path, so a
    repository read in place under `/data/team:a/repo` is quoted rather than split in two.
    """
    text = str(objects)
    if not any(char in text for char in ':"\\\n\t'):
        return text
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return f'"{escaped}"'
