"""The `-U0` history of a few files, newest first, read up to a byte cap.

Where a question needs every word a file's diffs removed (not the lines naming given words, which
`git log -G` answers but whose regex grows slow with hundreds of alternatives), the whole patch
log of the files is streamed and cut at a number of bytes: the same repository gives the same
bytes on any machine.
"""

from __future__ import annotations

from collections.abc import Collection

from sextant.gitsource.git_process import stream_git
from sextant.gitsource.history_access import HistoryRepository
from sextant.gitsource.history_patches import LOG_FORMAT, PINNED_DIFF_OPTIONS


def file_history_diffs(repo: HistoryRepository, paths: Collection[str], max_bytes: int) -> bytes:
    """The `-U0` diffs of every commit up to the head that changed one of the files, newest first.

    Args:
        repo: The opened repository.
        paths: The files.
        max_bytes: Bytes read at most (the oldest commits are cut).

    Returns:
        The log text, each commit headed `%x00%H%x00%cI%x00%s` (see commit_file_diffs).
    """
    args = [
        "log",
        "-p",
        "-U0",
        *PINNED_DIFF_OPTIONS,
        "--no-ext-diff",
        "--no-textconv",
        "--no-renames",
        "--diff-merges=off",
        "--no-color",
        LOG_FORMAT,
        repo.head,
        "--",
        *sorted(paths),
    ]
    read: list[bytes] = []
    size = 0
    with stream_git(args, env=repo.env, secrets=(), timeout=repo.timeout, git_dir=repo.git_dir) as output:
        for chunk in output.chunks():
            read.append(chunk[: max_bytes - size])
            size += len(read[-1])
            if size >= max_bytes:
                output.stop()
                break
    return b"".join(read)
