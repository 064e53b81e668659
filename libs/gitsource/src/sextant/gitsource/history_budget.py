"""How much history one doc check may read, counted in work, not in seconds.

A budget in seconds makes the answer depend on the machine: the same repository at the same commit
gave other findings on a loaded machine than on a quiet one, because the look-up was cut earlier.
So every limit here counts work git does whatever its speed — bytes of source the sampled-tree
greps read, first-parent commits the pass between the samples reads, git output read — sized so
that git/git's 82k commits stay within 1.5x the recency scan (bench/history/run.py). One wall-clock
limit stays, as a safety net only: `safety_seconds`, about ten times what the look-up takes on
git/git, so it fires on a machine that has all but stopped, and a finding it leaves undecided says
that it fired (which makes that finding, and only that one, depend on the machine).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sextant.gitsource.history_access import HistoryRepository

SOURCE_BYTES = 256 * 1024 * 1024
"""Source bytes the sampled trees' greps may read: git/git's 13 samples (5 whole trees of ~21 MB of
code, the others in the files that changed) need 123 MB; a tree ten times git/git's is cut after
its newest samples."""
HALFWAY_SOURCE_BYTES = 24 * 1024 * 1024
"""Source bytes the halfway samples (1,536, 3,072, … commits back) may hold in all, each counted as its
whole tree's code: a repository of 2 MB trees keeps every one; git/git (21 MB trees) keeps the newest."""
BETWEEN_COMMITS = 1024
"""First-parent commits the pass between the samples reads, newest first: a history of that size is
read whole; on git/git (whose merges carry large diffs) it is about a year, ~2 s of CPU. 2,048 took
the history look-ups to 1.51x the recency scan's CPU there, 1,024 to 1.13x (load 22)."""
OLDER_COMMITS = 16_384
"""Commits (merges left out) older than the first-parent pass's reach that one more pass may read,
each commit's own diff, side branches' too, when the whole history is at most this long (its
first-parent depth first, then every commit): aiohttp's 14k commits are read, ~0.7-3.4 s of CPU, while
git/git's 24k first-parent commits are past it before anything is counted."""
BLAME_COMMITS = 100_000
"""Commits blame may walk over all docs, counting each doc's blame as the whole first-parent history
(what it walks at most): 4 docs on git/git (24k first-parent commits, ~0.3 s of CPU per doc
there), a dozen on a repository of 8,000, every doc of a small one."""
DEFINITION_SOURCE_BYTES = 64 * 1024 * 1024
"""Source the outdated check may parse in all (the definitions' files at the docs' commits, and the
head's files whose `**kwargs` must be read): where it stops depends on the repository alone, never on
the machine's speed or load, and a claim whose file it left unread says so in its evidence."""
OUTPUT_BYTES = 8 * 1024 * 1024
"""Git output (grep hits, diffs) the whole look-up reads at most."""
SAFETY_SECONDS = 150.0
"""The wall-clock net over the whole look-up (git/git takes 10-16 s at load 2-18)."""


@dataclass(frozen=True)
class HistoryBudget:
    """The work one history look-up may do (see the module docstring for the sizes and why)."""

    source_bytes: int = SOURCE_BYTES
    halfway_source_bytes: int = HALFWAY_SOURCE_BYTES
    between_commits: int = BETWEEN_COMMITS
    older_commits: int = OLDER_COMMITS
    blame_commits: int = BLAME_COMMITS
    definition_source_bytes: int = DEFINITION_SOURCE_BYTES
    output_bytes: int = OUTPUT_BYTES
    safety_seconds: float = SAFETY_SECONDS


DEFAULT_BUDGET = HistoryBudget()


def safety_note(seconds: float, what: str) -> str:
    """What a finding says when the wall-clock net stopped the look-up (the one machine-dependent cut).

    Args:
        seconds: The net's size.
        what: What was left unread ("naming removal commits", "the older sampled trees").

    Returns:
        The note.
    """
    return (
        f"history search stopped by its {seconds:g} s safety limit before {what} "
        "(the machine was too slow or too loaded; another run may decide more)"
    )


def docs_to_blame(repo: HistoryRepository, blame_commits: int) -> int:
    """How many docs blame may read within `blame_commits`: one per first-parent history's length.

    Args:
        repo: The opened repository.
        blame_commits: The budget.

    Returns:
        At least 1.
    """
    commits = int(repo.git(["rev-list", "--first-parent", "--count", repo.head]).strip() or b"1")
    return max(1, blame_commits // max(commits, 1))


@dataclass
class SafetyClock:
    """The safety net's deadline, shared by the steps of one look-up."""

    seconds: float
    started: float = 0.0

    def __post_init__(self) -> None:
        self.started = time.monotonic()

    def remaining(self) -> float:
        """Seconds left before the net fires (never negative)."""
        return max(0.0, self.started + self.seconds - time.monotonic())

    def elapsed(self) -> float:
        """Seconds since the look-up started."""
        return time.monotonic() - self.started
