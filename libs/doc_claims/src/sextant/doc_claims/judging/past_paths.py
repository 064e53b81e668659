"""Paths a doc names that the repository held once and no longer does.

"See `docs/configuration.rst`" after the page moved to `docs/userguide/configuration.rst`: at the head
alone an absent path in prose may be the reader's own file, so it stays unverifiable. The history can
tell: when this repository's own tree held the path and a commit deleted it, the doc is behind. A
path the head already contradicts (a link, a `:file:` with a folder) gets the same evidence, and
with it the replacement. One
`git log --diff-filter=D` over the absent paths finds the newest commit deleting each; then that
commit alone is read with rename detection, so the finding can say where the file went ("moved to
`docs/userguide/configuration.rst`"), which is the replacement `--fix` offers.

Only paths a reader's own project is unlikely to hold count: a doc page in a folder
(`docs/configuration.rst`) or a file under one of this repository's own packages
(`celery/app/defaults.py`). A test or sample file (`test/test.spec.js`, which mocha's own tree held
until 2017 and its docs now name as the reader's) or a top-level `setup.py` is as often the reader's
as it was ours. A blob-less mirror lists deletions from its trees alone, but
rename detection would fetch old blobs, so there the finding names the deletion without a replacement.
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections import defaultdict

from sextant.doc_claims.claims.claim import Claim
from sextant.doc_claims.judging.checking import Resolution
from sextant.doc_claims.judging.code_facts import CodeFacts
from sextant.doc_rules import calendar_day
from sextant.doc_rules.kinds import DOC_EXTENSIONS
from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.history_access import HistoryRepository
from sextant.gitsource.history_budget import DEFAULT_BUDGET, HistoryBudget
from sextant.gitsource.history_patches import LOG_FORMAT, PINNED_DIFF_OPTIONS, CommitRef

MAX_PATHS = 60
"""Absent paths looked up per check: a doc of hundreds of made-up paths is not read further."""
MAX_COMMITS = 20_000
"""Commits the deletion log reads back from the head (a work budget: tree diffs of a few paths)."""


@dataclasses.dataclass(frozen=True)
class _Deletion:
    commit: CommitRef
    moved_to: str | None


def revise_with_past_paths(
    judged: list[tuple[Claim, Resolution]],
    facts: CodeFacts,
    repo: HistoryRepository,
    budget: HistoryBudget = DEFAULT_BUDGET,
) -> list[tuple[Claim, Resolution]]:
    """Contradict the absent paths the history shows this repository deleted, with where they went.

    Args:
        judged: Claims with their resolutions (an absent path in prose is unverifiable, with the
            candidates it was looked for as).
        facts: The head's code facts (its packages' folders).
        repo: The repository's history.
        budget: How much history the deletion log may walk (`_log_range`).

    Returns:
        The same list, those claims revised.
    """
    wanted = _wanted(judged, facts)
    if not wanted or len(wanted) > MAX_PATHS:
        return judged
    try:
        deletions = _deletions(repo, set(wanted), budget)
    except GitSourceError:
        return judged  # history unread: the paths stay as the head leaves them
    revised = list(judged)
    for path, indices in wanted.items():
        deletion = deletions.get(path)
        if deletion is None:
            continue
        for index in indices:
            claim, resolution = revised[index]
            if resolution.removed_by is None:
                revised[index] = (claim, _contradicted(resolution, path, deletion))
    return revised


def _wanted(judged: list[tuple[Claim, Resolution]], facts: CodeFacts) -> dict[str, list[int]]:
    """Absent path → the claims looking for it: the open questions first, then the contradicted ones."""
    packages = tuple(
        posixpath.dirname(path) + "/"
        for module, path in facts.import_modules.items()
        if "." not in module and path.endswith("/__init__.py")
    )
    wanted: dict[str, list[int]] = defaultdict(list)
    told: dict[str, list[int]] = defaultdict(list)  # already contradicted: history adds where it went
    for index, (claim, resolution) in enumerate(judged):
        if claim.kind != "path" or claim.in_history_sentence:
            continue
        for candidate in (c.strip("/") for c in resolution.absent_paths):
            doc_page = "/" in candidate and posixpath.splitext(candidate)[1] in DOC_EXTENSIONS
            if resolution.status == "contradicted":
                told[candidate].append(index)
            elif doc_page or candidate.startswith(packages):
                wanted[candidate].append(index)
    for candidate, indices in told.items():
        if len(wanted) >= MAX_PATHS:
            break  # the open questions first: a doc of many broken links is not read further
        wanted[candidate].extend(indices)
    return wanted


def _contradicted(resolution: Resolution, path: str, deletion: _Deletion) -> Resolution:
    commit = deletion.commit
    day = calendar_day(commit.day) or "an unknown day"
    by = f"{commit.sha[:7]} '{commit.subject[:100]}'"
    how = f"moved to {deletion.moved_to} by {by}" if deletion.moved_to else f"deleted by {by}"
    return dataclasses.replace(
        resolution,
        status="contradicted",
        evidence=f"{path} was this repository's file until {day}; {how}",
        removed_by=f"{commit.sha[:7]} {commit.subject[:100]}",
        removed_at=day,
        replacement=deletion.moved_to,
    )


def _deletions(repo: HistoryRepository, paths: set[str], budget: HistoryBudget) -> dict[str, _Deletion]:
    """Path → the newest commit that deleted it (and where it moved, read from that commit alone)."""
    pathspecs = [f":(literal){path}" for path in sorted(paths)]
    options = [f"--max-count={MAX_COMMITS}", "--diff-filter=D", "--name-only", "--no-renames", LOG_FORMAT]
    log = repo.git(["log", *_log_range(repo, budget), *options, "--", *pathspecs]).decode("utf-8", "replace")
    found: dict[str, CommitRef] = {}
    fields = log.split("\0")
    # LOG_FORMAT writes "\0sha\0date\0subject" and --name-only the paths after it, one per line.
    for at in range(1, len(fields) - 2, 3):
        subject, _, names = fields[at + 2].partition("\n")
        for name in names.split("\n"):
            if name in paths and name not in found:
                found[name] = CommitRef(fields[at], fields[at + 1], subject)
    moves = {commit.sha: _moves(repo, commit.sha) for commit in found.values()}  # one read per commit
    return {path: _Deletion(commit, moves[commit.sha].get(path)) for path, commit in found.items()}


def _log_range(repo: HistoryRepository, budget: HistoryBudget) -> list[str]:
    """The history the deletion log walks: all of it when it holds at most `budget.older_commits`
    commits (celery's 13k: its 2016 move is found), else the newest `budget.between_commits`
    first-parent commits. The walk's path-limited tree diffs cost about 0.1 ms a commit on git/git,
    7.5 s over its 82k commits, half the whole history step; counting stops one commit past the
    budget, so a long history is not walked to be counted."""
    counted = repo.git(["rev-list", "--count", f"--max-count={budget.older_commits + 1}", repo.head])
    if int(counted.strip() or b"0") <= budget.older_commits:
        return [repo.head]
    try:
        repo.git(["rev-parse", "--verify", "--quiet", f"{repo.head}~{budget.between_commits}"])
    except GitSourceError:
        return ["--first-parent", repo.head]  # a first-parent line shorter than the budget: all of it
    return ["--first-parent", repo.head, f"^{repo.head}~{budget.between_commits}"]


def _moves(repo: HistoryRepository, sha: str) -> dict[str, str]:
    """Old path → new path of what the commit moved, by git's rename detection on that commit alone;
    empty on a blob-less clone (detection would fetch old blobs) or when it cannot be read."""
    if repo.partial:
        return {}
    try:
        out = repo.git(
            ["show", sha, "--format=", "--name-status", "-M", "--no-ext-diff", "--no-textconv", *PINNED_DIFF_OPTIONS]
        ).decode("utf-8", "replace")
    except GitSourceError:
        return {}
    return {
        parts[1]: parts[2]
        for parts in (line.split("\t") for line in out.splitlines())
        if len(parts) == 3 and parts[0].startswith("R")
    }
