"""Streaming parser for ``git log -z --no-renames --name-status --format=%x01%H %ct``.

With ``-z`` git writes, per commit, a header token ``\\x01<sha> <epoch>`` and then, for commits with
a diff, pairs of tokens ``<status>`` and ``<path>`` (rename/copy statuses carry two paths), all
NUL-terminated; the first status of a commit is preceded by a newline. Paths are raw bytes, exactly
as the tree names them (spaces, quotes, newlines, non-UTF-8). The log is newest first, so the first
sighting of a path is its last change.

Merge commits: ``--diff-merges=off`` (git log's default) shows no file list for a merge, so a file
changed on a side branch carries the date of the side-branch commit that changed it, not the merge
date (what ``git log -1 -- path`` reports too). Paths that only merges ever changed are dated by a
second, merge-only pass (see ``recency.merge_log_arguments``) that this same parser reads. Combined
merge diffs are never used: they would need blob contents, fetched one by one in a blob-less clone.

Shallow clones: a boundary commit (listed in the clone's ``shallow`` file) has no parent in the
clone, so git lists every file in it as added. Its entries are ignored: a file first seen there is
older than the window and stays undated.
"""

from __future__ import annotations

LOG_MARKER = "%x01"
LOG_FORMAT = f"{LOG_MARKER}%H %ct"

_HEADER = 1  # first byte of a header token (\x01)
_STATUSES = frozenset(b"ABCDMRTUX")
_TWO_PATH_STATUSES = frozenset(b"RC")


class LogFormatError(ValueError):
    """The git log output did not have the expected shape."""


class NameStatusParser:
    """Feed it chunks of the log; it keeps the newest commit time of each wanted path.

    Args:
        wanted: Paths (bytes) to date, e.g. the tree at head; None dates every path seen. Memory
            grows with these paths, never with the number of commits.
        boundary: SHAs (hex bytes) of shallow boundary commits whose entries are ignored.
    """

    def __init__(self, wanted: set[bytes] | None, boundary: frozenset[bytes] = frozenset()) -> None:
        self.first_seen: dict[bytes, bytes] = {}
        """Path → commit time (epoch seconds as ASCII bytes) of its newest sighting."""
        self.commits_read = 0
        self._pending = set(wanted) if wanted is not None else None
        self._boundary = boundary
        self._carry = b""
        self._paths_due = 0
        self._skip_source_path = False
        self._time = b""
        self._recording = False

    @property
    def complete(self) -> bool:
        """Whether every wanted path has a date, so the rest of the log cannot change anything."""
        return self._pending is not None and not self._pending

    def feed(self, chunk: bytes) -> None:
        """Parse the next piece of output (pieces may split tokens anywhere).

        Args:
            chunk: Bytes as read from git's stdout.
        """
        if self.complete:
            return
        tokens = (self._carry + chunk).split(b"\0")
        self._carry = tokens.pop()
        self._parse(tokens)

    def finish(self) -> None:
        """Check that the output ended on a token boundary (git log always ends with a NUL)."""
        if self.complete:
            return
        if self._carry:
            raise LogFormatError("git log output ended in the middle of a record")
        if self._paths_due:
            raise LogFormatError("git log output ended before the path of a status entry")

    def _parse(self, tokens: list[bytes]) -> None:  # noqa: PLR0912 - one flat hot loop, see below
        # One tight loop with locals and no calls: it runs once per path entry of the whole history.
        pending = self._pending
        first_seen = self.first_seen
        due = self._paths_due
        skip_source = self._skip_source_path
        time = self._time
        recording = self._recording
        for token in tokens:
            if due:
                due -= 1
                if skip_source:
                    skip_source = False  # rename/copy source: the path the commit did not write
                elif recording:
                    if pending is None:
                        if token not in first_seen:
                            first_seen[token] = time
                    elif token in pending:
                        pending.discard(token)
                        first_seen[token] = time
                        if not pending:
                            break  # every wanted path is dated: the rest cannot change anything
                continue
            entry = token[1:] if token[:1] == b"\n" else token
            if not entry:
                continue
            lead = entry[0]
            if lead == _HEADER:
                sha, _, time = entry[1:].partition(b" ")
                if not sha or not time.isdigit():
                    raise LogFormatError("malformed commit header in git log output")
                self.commits_read += 1
                recording = sha not in self._boundary
            elif lead in _STATUSES:
                if lead in _TWO_PATH_STATUSES:
                    due, skip_source = 2, True
                else:
                    due = 1
            else:
                raise LogFormatError("unexpected token in git log output")
        self._paths_due = due
        self._skip_source_path = skip_source
        self._time = time
        self._recording = recording
