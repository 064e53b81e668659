"""How files changed since given commits: old blob ids in one batch, and the diffs that dropped given words.

Used to tell whether a definition changed after a doc line was written: the file at the doc's
commit is compared with the head (identical blobs need no parsing), and when a definition lost
something, one path-limited `git log -p -U0 -G` names the commit that dropped it.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from sextant.gitsource.history_access import HistoryRepository
from sextant.gitsource.history_definitions import diffs_naming
from sextant.gitsource.history_patches import CommitRef, commit_file_diffs


@dataclass(frozen=True)
class DroppedWord:
    """A commit whose diff of a file removed lines holding a word (and added none with it)."""

    word: str
    path: str
    commit: CommitRef


def blob_ids(repo: HistoryRepository, specs: Iterable[str]) -> dict[str, str]:
    """Blob ids of `<commit>:<path>` names, in one `cat-file --batch-check`.

    Args:
        repo: The opened repository.
        specs: Object names such as `1a2b…:src/acme/pool.py`.

    Returns:
        Name → blob id, for the names that exist.
    """
    wanted = [spec for spec in dict.fromkeys(specs) if "\n" not in spec]
    if not wanted:
        return {}
    out = repo.git(
        ["cat-file", "--batch-check=%(objectname) %(objecttype)", "--buffer"],
        stdin="".join(f"{spec}\n" for spec in wanted).encode(),
    )
    found = {}
    for spec, line in zip(wanted, out.decode("utf-8", "replace").splitlines(), strict=False):
        fields = line.split(" ")
        if len(fields) == 2 and fields[1] == "blob":
            found[spec] = fields[0]
    return found


def dropping_commits(
    repo: HistoryRepository, since: str, paths: Collection[str], words: Collection[str], *, max_bytes: int
) -> list[DroppedWord]:
    """Commits after `since` (up to the head) whose diffs drop each word from each file.

    Args:
        repo: The opened repository.
        since: The oldest commit of interest (excluded).
        paths: Files to look at.
        words: Identifiers whose removal is of interest.
        max_bytes: Cap on the diff text read.

    Returns:
        For each (word, file), the oldest such commit after `since` (the first change that broke
        the doc), in no particular order.
    """
    if not paths or not words:
        return []
    out = diffs_naming(repo, words, paths, f"{since}..{repo.head}")[:max_bytes]
    patterns = {word: re.compile(rf"\b{re.escape(word)}\b") for word in words}
    oldest: dict[tuple[str, str], DroppedWord] = {}
    for commit, path, removed, added in commit_file_diffs(out.decode("utf-8", "replace")):
        for word, pattern in patterns.items():
            if any(pattern.search(line) for line in removed) and not any(pattern.search(line) for line in added):
                oldest[(word, path)] = DroppedWord(word, path, commit)  # newest first: the last write wins
    return list(oldest.values())
