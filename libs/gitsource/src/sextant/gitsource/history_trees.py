"""A commit's tree and file contents, read in place in one or two git calls each."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.git_process import stream_git
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


def tree_paths(repo: HistoryRepository, commit: str | None = None) -> list[str]:
    """The paths of `list_tree`, read from the tree alone: no blob is touched, so a blob-less mirror lists them too.

    Args:
        repo: The opened repository.
        commit: The commit; None for the repository's head.

    Returns:
        Paths of the files (blobs), submodules and symlinks left out, sorted.
    """
    out = repo.git(["ls-tree", "-r", "-z", "--full-tree", commit or repo.head])
    paths = []
    for record in out.split(b"\0"):
        meta, _, raw_path = record.partition(b"\t")
        fields = meta.decode("ascii").split()
        if len(fields) == 3 and fields[1] == "blob" and fields[0] != "120000":
            paths.append(raw_path.decode("utf-8", "surrogateescape"))
    return sorted(paths)


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
    """The last commit that changed each path (up to the head), from one streamed `git log` pass.

    The log is read newest first without a pathspec (matching hundreds of pathspecs against every
    commit costs far more than reading names) and stopped as soon as every path is found.

    Args:
        repo: The opened repository.
        paths: Paths of the head's tree (a few hundred docs, say).

    Returns:
        Path → (commit SHA, its committer date, ISO 8601 in the committer's offset); paths git
        never saw are left out.
    """
    wanted = {path.encode("utf-8", "surrogateescape") for path in paths}
    if not wanted:
        return {}
    # --root: the first commit's files are listed whatever log.showRoot says (a file never changed since
    # would otherwise have no last commit at all).
    args = ["log", "--root", "--no-renames", "--diff-merges=off", "--format=%x00%H %cI", "--name-only", "-z", repo.head]
    found: dict[bytes, tuple[str, str]] = {}
    commit: tuple[str, str] | None = None
    pending = b""
    with stream_git(args, env=repo.env, secrets=(), timeout=repo.timeout, git_dir=repo.git_dir) as output:
        for chunk in output.chunks():
            tokens = (pending + chunk).split(b"\0")
            pending = tokens.pop()
            for token in tokens:
                text = token.strip(b"\n")
                if not text:
                    continue
                if _is_header(text):
                    sha, _, day = text.decode("ascii").partition(" ")
                    commit = (sha, day)
                elif commit is not None and text in wanted and text not in found:
                    found[text] = commit
            if len(found) == len(wanted):
                output.stop()
                break
    return {path.decode("utf-8", "surrogateescape"): value for path, value in found.items()}


def _is_header(text: bytes) -> bool:
    sha, _, day = text.partition(b" ")
    return len(sha) in {40, 64} and day[:2].isdigit() and b"T" in day and all(c in b"0123456789abcdef" for c in sha)
