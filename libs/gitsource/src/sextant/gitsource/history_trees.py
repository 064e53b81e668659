"""A commit's tree and file contents, read in place in one or two git calls each."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sextant.gitsource.commit_dates import iso_from_epoch
from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.history_access import HistoryRepository


@dataclass(frozen=True)
class TreeFile:
    """One file of a commit's tree."""

    path: str
    blob: str
    size: int
    """Bytes; -1 when git could not tell (a missing blob of a partial clone)."""
    mode: str


def list_tree(repo: HistoryRepository, commit: str | None = None) -> list[TreeFile]:
    """Every file (blob) of a commit's tree, submodules and symlinks left out.

    Args:
        repo: The opened repository.
        commit: The commit; None for the repository's head.

    Returns:
        Files sorted by path.
    """
    out = repo.git(["ls-tree", "-r", "-z", "-l", "--full-tree", commit or repo.head])
    files = []
    for record in out.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode, kind, blob, size = meta.decode("ascii").split()
        if kind != "blob" or mode == "120000":
            continue
        files.append(
            TreeFile(raw_path.decode("utf-8", "surrogateescape"), blob, int(size) if size.isdigit() else -1, mode)
        )
    return sorted(files, key=lambda f: f.path)


def read_objects(repo: HistoryRepository, names: Iterable[str]) -> dict[str, bytes]:
    """Contents of objects named by id or `<commit>:<path>`, in one `cat-file --batch`.

    Args:
        repo: The opened repository.
        names: Object names; a missing one (absent path, unfetched blob) is left out of the answer.

    Returns:
        Name → content.
    """
    wanted = list(dict.fromkeys(names))
    if not wanted:
        return {}
    if any("\n" in name for name in wanted):
        raise GitSourceError("object names cannot hold a newline")
    # %(rest) is empty for these inputs; the input order is kept, so answers pair with names.
    out = repo.git(["cat-file", "--batch", "--buffer"], stdin="".join(f"{n}\n" for n in wanted).encode())
    contents: dict[str, bytes] = {}
    position = 0
    for name in wanted:
        line_end = out.index(b"\n", position)
        fields = out[position:line_end].split(b" ")
        position = line_end + 1
        if len(fields) != 3 or fields[1] != b"blob":
            continue  # "<name> missing" (or not a blob): nothing to read
        size = int(fields[2])
        contents[name] = out[position : position + size]
        position += size + 1
    return contents


def last_commits(repo: HistoryRepository, paths: Iterable[str]) -> dict[str, tuple[str, str]]:
    """The last commit that changed each path (up to the head), from one `git log` pass.

    Args:
        repo: The opened repository.
        paths: Paths of the head's tree (a few hundred docs, say).

    Returns:
        Path → (commit SHA, its committer day as ISO 8601); paths git never saw are left out.
    """
    wanted = set(paths)
    if not wanted:
        return {}
    out = repo.git(
        [
            "log",
            "--no-renames",
            "--diff-merges=off",
            "--format=%x00%H %ct",
            "--name-only",
            "-z",
            repo.head,
            "--",
            *sorted(wanted),
        ]
    )
    found: dict[str, tuple[str, str]] = {}
    commit: tuple[str, str] | None = None
    for token in out.split(b"\0"):
        text = token.decode("utf-8", "surrogateescape").strip("\n")
        if not text:
            continue
        if commit is None or _is_header(text):
            sha, _, epoch = text.partition(" ")
            commit = (sha, iso_from_epoch(int(epoch)))
            continue
        if text in wanted and text not in found:
            found[text] = commit
            if len(found) == len(wanted):
                break
    return found


def _is_header(text: str) -> bool:
    sha, _, epoch = text.partition(" ")
    return len(sha) in {40, 64} and epoch.isdigit() and all(c in "0123456789abcdef" for c in sha)
