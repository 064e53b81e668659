"""Reading the `-p -U0` logs the history look-ups ask for: each commit, each file, its removed and added lines.

A file's section of a patch is read as git writes it: the `diff --git` line opens it, its header
lines (`---`, `+++`, modes, index) follow up to the first `@@`, and only then do lines starting with
`-` or `+` hold code. So a removed line of code that itself starts with `--` (`--- a/x` once it is a
diff line) is a removed line, not a header. The path is read from the `---`/`+++` lines, which name
one path each (the `diff --git a/P b/P` line names two, and a path holding " b/" makes it
ambiguous), unquoting git's C-style quotes (a path with a tab, a quote, a newline or, by default,
any non-ASCII byte); a section with neither (a binary file, a mode change) has no lines to read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class CommitRef:
    """A commit as findings show it."""

    sha: str
    day: str
    """Committer date, ISO 8601 in the committer's own offset (git's %cI)."""
    subject: str


PINNED_DIFF_OPTIONS = ("--src-prefix=a/", "--dst-prefix=b/", "--inter-hunk-context=0")
"""Given to every patch the look-ups read, so no config (the repository's, the user's) changes its
headers or hunks."""
LOG_FORMAT = "--format=%x00%H%x00%cI%x00%s"
"""The commit header every patch log here is asked for, which `commit_file_diffs` reads."""
PATCH_LOG_OPTIONS = (
    "-U0",
    *PINNED_DIFF_OPTIONS,
    "--no-ext-diff",
    "--no-textconv",
    "--no-renames",
    "--no-color",
    LOG_FORMAT,
)
"""How every look-up asks git for a patch log: changed lines only, no context, headers pinned, no
external diff or text conversion (a repository's config never runs a program), renames as a delete
and an add, each commit headed as `commit_file_diffs` reads it."""

_RECORD_START = re.compile(r"(?:^|\n)\0")
_SECTION = "diff --git "
_C_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


def commit_diffs(log: str) -> Iterable[tuple[CommitRef, list[str], list[str]]]:
    """(commit, removed lines, added lines) of a `LOG_FORMAT -p -U0` log, each commit's files together, in order.

    Args:
        log: The log's text.

    Returns:
        One tuple per commit, newest first.
    """
    for commit, body in _commits(log):
        removed: list[str] = []
        added: list[str] = []
        for _, file_removed, file_added in _files(body):
            removed += file_removed
            added += file_added
        yield commit, removed, added


def commit_file_diffs(log: str) -> Iterable[tuple[CommitRef, str, list[str], list[str]]]:
    """(commit, path, removed lines, added lines) per file of a `LOG_FORMAT -p -U0` log.

    Args:
        log: The log's text.

    Returns:
        One tuple per file a commit changed (with lines or not), newest commit first.
    """
    for commit, body in _commits(log):
        for path, removed, added in _files(body):
            yield commit, path, removed, added


def _commits(log: str) -> Iterator[tuple[CommitRef, str]]:
    for record in _RECORD_START.split(log):
        header, _, body = record.partition("\n")
        fields = header.split("\0")
        if len(fields) < 3 or "T" not in fields[1]:
            continue
        yield CommitRef(fields[0], fields[1], fields[2]), body


def _files(body: str) -> Iterator[tuple[str, list[str], list[str]]]:
    """Each file section of one commit's patch: (path, removed lines, added lines)."""
    path: str | None = None
    old: str | None = None
    in_hunks = False
    removed: list[str] = []
    added: list[str] = []
    for line in body.split("\n"):
        if line.startswith(_SECTION):
            if path is not None or old is not None:
                yield path or old or "", removed, added
            # The header's path stands for a section without ---/+++ lines; theirs win otherwise.
            path, old, in_hunks, removed, added = _header_path(line[len(_SECTION) :]), None, False, [], []
        elif in_hunks:
            if line.startswith("-"):
                removed.append(line[1:])
            elif line.startswith("+"):
                added.append(line[1:])
        elif line.startswith("@@"):
            in_hunks = True
        elif line.startswith("--- "):
            old = _side_path(line[4:], "a/")
        elif line.startswith("+++ "):
            new = _side_path(line[4:], "b/")
            path = new if new is not None else old
    if path is not None or old is not None:
        yield path or old or "", removed, added


def _side_path(text: str, prefix: str) -> str | None:
    """The path of a `---`/`+++` line's rest; None for /dev/null (an added or deleted file's other side)."""
    if text.startswith('"'):
        text = _unquoted(text)
    elif "\t" in text:
        text = text[: text.index("\t")]  # git ends a name holding a space with a tab
    if text == "/dev/null" or not text.startswith(prefix):
        return None
    return text[len(prefix) :]


def _header_path(rest: str) -> str | None:
    """The path of a `diff --git` line without renames, which names it twice: `a/P b/P` (or both quoted)."""
    if rest.startswith('"'):
        return _side_path(rest, "a/")
    body = rest.removeprefix("a/")
    half = (len(body) - 3) // 2
    if len(body) % 2 and body[half : half + 3] == " b/" and body[:half] == body[half + 3 :]:
        return body[:half]
    return None


def _unquoted(text: str) -> str:
    """The name inside git's C-style quotes (`"a/tab\\there.py"`), its octal escapes read as UTF-8 bytes."""
    out = bytearray()
    index = 1
    while index < len(text) and text[index] != '"':
        char = text[index]
        if char != "\\" or index + 1 >= len(text):
            out += char.encode("utf-8", "surrogateescape")
            index += 1
            continue
        escaped = text[index + 1]
        if escaped in _C_ESCAPES:
            out.append(_C_ESCAPES[escaped])
            index += 2
        elif text[index + 1 : index + 4].isdigit():
            out.append(int(text[index + 1 : index + 4], 8) & 0xFF)
            index += 4
        else:
            out += escaped.encode("utf-8", "surrogateescape")
            index += 2
    return out.decode("utf-8", "replace")
