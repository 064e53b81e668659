"""Names that lived and died between two sampled trees: the diffs between the samples, read once.

The sampled look-up (`history_definitions`) sees a name only if some sampled tree holds it, so a name
added and removed between two samples (a build tag that lived five months, an option renamed twice)
escapes it. For the names no sample held and the head's code never uses, this pass reads the
history the samples skipped: one `git log --first-parent -p -U0 -G` per stretch between two
consecutive samples (head to the newest sample first), limited to the code files and to lines naming
one of those names. A stretch's commits are read once and the stretches do not overlap, so the pass
reads the first-parent history at most once, however many names there are; the names the head uses
are left out because their every use would be most of the output and none of the news.

The newest commit whose diff drops a name's definition (and adds none) removed it; the definitions
that commit added are the candidates for its replacement. The pass reads whole stretches, newest
first, while their first-parent commits fit its work budget (`HistoryBudget.between_commits`; the
stretches' lengths are known from the samples' depths, so where it stops never depends on the
machine) and the look-up's output budget lasts: the newer stretches read so far stand and
`between_note` says how far back the pass reached. A pass cut short never weakens what the sampled
look-up decided (that is `note`): it only finds fewer of the names the samples missed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection

from sextant.gitsource.errors import GitSourceError, GitTimeoutError
from sextant.gitsource.history_access import HistoryRepository
from sextant.gitsource.history_budget import SafetyClock, safety_note
from sextant.gitsource.history_definitions import (
    CODE_PATHSPECS,
    NOT_OWN_SOURCE_FOLDERS,
    DefinitionSearch,
    PastDefinition,
    code_pathspecs_among,
    defined_names,
    definition_pattern,
    forwards,
    is_test_or_sample,
    word_pattern,
)
from sextant.gitsource.history_patches import PATCH_LOG_OPTIONS, CommitRef, commit_file_diffs
from sextant.gitsource.name_alternation import ere_alternation


def search_between_samples(
    repo: HistoryRepository,
    search: DefinitionSearch,
    *,
    used: Collection[str] = frozenset(),
) -> DefinitionSearch:
    """Look for the names no sampled tree held in the commits between the samples, newest first.

    Args:
        repo: The opened repository.
        search: The sampled look-up's result (its `samples`, `depths`, `found`, `searched` and
            `budget`); updated in place (`found`, `bytes_read`, `seconds`, `between_note`).
        used: Names the head's code still uses (left out: their uses are no news).

    Returns:
        The same search, with the names this pass found added to `found`.
    """
    samples = search.samples
    names = sorted(set(search.searched) - set(search.found) - set(used))
    if not samples or not names or search.note is not None:
        return search  # nothing left to find, or the sampled look-up already spent its budget
    budget = search.budget
    clock = search.clock or SafetyClock(budget.safety_seconds)
    started = clock.elapsed()
    regex = _naming_any(names)
    found: dict[str, PastDefinition] = {}
    named: dict[str, PastDefinition] = {}
    pathspecs = _code_pathspecs_changed(repo, search, clock)
    newer, newer_depth = repo.head, 0
    out_of_budget = False  # the pass stopped at its work budget (not at a failure or the safety net)
    for index, (oldest, _) in enumerate(samples):
        depth = search.depths[index] if index < len(search.depths) else newer_depth
        if depth > budget.between_commits or search.bytes_read > budget.output_bytes:
            search.between_note = _reached_note(index, samples, newer_depth, budget.between_commits)
            out_of_budget = True
            break
        try:
            out = (
                dataclasses.replace(repo, timeout=max(clock.remaining(), 0.1)).git(
                    [
                        "log",
                        "--first-parent",
                        "--diff-merges=first-parent",
                        "-p",
                        *PATCH_LOG_OPTIONS,
                        f"-G{regex}",
                        f"{oldest}..{newer}",
                        "--",
                        *pathspecs,
                    ]
                )
                if pathspecs
                else b""  # no code file changed in all the stretches
            )
        except GitTimeoutError:
            reached = samples[index - 1][1].day[:10] if index > 0 else "the head"
            search.between_note = safety_note(
                budget.safety_seconds, f"reading the commits between the sampled trees older than {reached}"
            )
            break
        except GitSourceError as error:  # a blob a partial clone lacks (never fetched): stop here
            search.between_note = f"history between the sampled trees not read past {index} stretches: {error}"
            break
        if search.bytes_read + len(out) > budget.output_bytes:
            out = out[: max(0, budget.output_bytes - search.bytes_read)]
            search.between_note = (
                "history between the sampled trees read only up to its "
                f"{budget.output_bytes / 2**20:,.0f} MiB output budget"
            )
        search.bytes_read += len(out)
        _read_removals(out.decode("utf-8", "replace"), names, found, named)
        newer, newer_depth = oldest, depth
        if len(found) == len(names) or search.between_note is not None:
            break
    if out_of_budget:
        # Also the names a sampled tree only used (a test's keyword, a message): their definition may
        # have lived between older samples.
        weak = {name for name, past in search.found.items() if not past.defined}
        # Not settings' and environment variables' upper-case keys: reading one is its "definition",
        # and a key read in 2010 by `getattr(settings, "CASSANDRA_COLUMN_FAMILY")`, then again until
        # 2015 by `conf.get(...)`, would be dated by the older read (celery's 4.0 settings table).
        older = sorted(n for n in (set(names) | (weak - set(used))) - set(found) if not n.isupper())
        if older:
            _search_older_history(repo, search, names=older, oldest_read=newer, found=found, named=named, clock=clock)
    for name, past in named.items():
        found.setdefault(name, past)  # only ever used, not defined: weaker (a parameter counts, see past_names)
    search.found = {**search.found, **found}
    search.seconds += clock.elapsed() - started
    return search


def _code_pathspecs_changed(repo: HistoryRepository, search: DefinitionSearch, clock: SafetyClock) -> tuple[str, ...]:
    """The code pathspecs the files changed in the stretches within the budget can match (`code_pathspecs_among`).

    One `--name-only` log of the stretches' whole first-parent history, without a pathspec (git/git's
    1,024 commits: ~0.2 s of CPU), lists what they changed; every code pathspec when it cannot.
    """
    samples, depths = search.samples or [], search.depths
    within = [
        sha
        for index, (sha, _) in enumerate(samples)
        if index < len(depths) and depths[index] <= search.budget.between_commits
    ]
    if not within:
        return CODE_PATHSPECS
    try:
        out = dataclasses.replace(repo, timeout=max(clock.remaining(), 0.1)).git(
            [
                "log",
                "--first-parent",
                "--diff-merges=first-parent",
                "--no-renames",
                "--name-only",
                "--format=",
                "-z",
                f"{within[-1]}..{repo.head}",
            ]
        )
    except GitSourceError:
        return CODE_PATHSPECS
    return code_pathspecs_among(path.strip("\n") for path in out.decode("utf-8", "surrogateescape").split("\0"))


def _read_removals(
    log: str, names: list[str], found: dict[str, PastDefinition], named: dict[str, PastDefinition]
) -> None:
    """Record, for each name not yet found, the newest commit of the log that drops it from a source file."""
    added_by: dict[str, list[str]] = {}
    for commit, path, removed, added in commit_file_diffs(log):
        added_by.setdefault(commit.sha, []).extend(defined_names(added))
        if is_test_or_sample(path):
            continue
        for name in names:
            if name in found:
                continue
            definition = definition_pattern(name, path)
            dropped = next((line for line in removed if definition.search(line)), None)
            if dropped is not None and not any(definition.search(line) for line in added):
                past = _past(name, path, dropped, commit)
                found[name] = dataclasses.replace(past, defined=not forwards(name, removed))
                continue
            word = word_pattern(name)
            used_line = next((line for line in removed if word.search(line)), None)
            if name not in named and used_line is not None and not any(word.search(line) for line in added):
                named[name] = dataclasses.replace(_past(name, path, used_line, commit), defined=False)
    for table in (found, named):
        for name, past in table.items():
            if past.removed_by is not None and not past.added_by_removal:
                kept = tuple(n for n in dict.fromkeys(added_by.get(past.removed_by.sha, ())) if n != name)
                table[name] = dataclasses.replace(past, added_by_removal=kept)


def _past(name: str, path: str, line: str, commit: CommitRef) -> PastDefinition:
    return PastDefinition(name, path, 0, line.strip()[:200], seen_at=commit, removed_by=commit)


def _search_older_history(
    repo: HistoryRepository,
    search: DefinitionSearch,
    *,
    names: list[str],
    oldest_read: str,
    found: dict[str, PastDefinition],
    named: dict[str, PastDefinition],
    clock: SafetyClock,
) -> None:
    """Read, in one pass, every commit older than the stretches the first-parent pass reached, side
    branches' too, when there are few enough of them (`HistoryBudget.older_commits`).

    A first-parent diff shows a side branch only as its merge's net change, so a name that a branch
    added and renamed before it was merged (aiohttp's `TCPConnector.dns_cache`, `use_dns_cache`
    within the day) is in no first-parent diff and no sampled tree. Each commit's own diff (merges
    left out: their first-parent diffs repeat their branches') is read once; test, sample and doc
    folders are left out, since what they define is no API. The size is counted from the history
    itself (first-parent depth, then every commit), never from a clock: git/git's 24k first-parent
    commits are past the budget before anything is counted, so its cost there is nil.
    """
    budget = search.budget
    depth = search.depths[-1] if search.depths else budget.older_commits + 1
    if depth > budget.older_commits or search.bytes_read >= budget.output_bytes:
        return
    try:
        count = int(repo.git(["rev-list", "--count", "--no-merges", oldest_read]).strip() or b"0")
        if count > budget.older_commits:
            return
        out = dataclasses.replace(repo, timeout=max(clock.remaining(), 0.1)).git(
            [
                "log",
                "--no-merges",
                "-p",
                *PATCH_LOG_OPTIONS,
                f"-G{_naming_any(names)}",
                oldest_read,
                "--",
                *CODE_PATHSPECS,
                *_NOT_API_PATHSPECS,
            ]
        )
    except (GitSourceError, ValueError):
        return  # a blob a partial clone lacks, a timeout: what the stretches found stands, as their note says
    if search.bytes_read + len(out) > budget.output_bytes:
        return  # a partial read would call the newest removal in it the removing commit: keep the note
    search.bytes_read += len(out)
    _read_removals(out.decode("utf-8", "replace"), names, found, named)
    search.between_note = None  # the whole history was read


def _naming_any(names: list[str]) -> str:
    """An extended regex for lines naming one of the names as a whole word.

    The names are one prefix tree (ere_alternation): the same lines match as with a flat list, at
    about two thirds of the matching work (git/git's 1,024 commits: -G 1.5 -> 1.0 s of CPU).
    """
    return r"(^|[^A-Za-z0-9_$])" + ere_alternation(names) + r"([^A-Za-z0-9_$]|$)"


# What the older pass leaves to git's pathspecs: the folders whose definitions are no API anyway
# (`is_test_or_sample`), and celery's `t/` tests; and the usual test file names.
_NOT_API_PATHSPECS = (
    *(f":(exclude,glob)**/{folder}/**" for folder in sorted(NOT_OWN_SOURCE_FOLDERS | {"t"})),
    ":(exclude,glob)**/test_*.py",
    ":(exclude,glob)**/*_test.go",
    ":(exclude,glob)**/*.spec.js",
)


def _reached_note(index: int, samples: list[tuple[str, CommitRef]], commits: int, budget: int) -> str:
    reached = samples[index - 1][1].day[:10] if index > 0 else "the head"
    return (
        f"history between the sampled trees read back to {reached} ({commits:,} commits; its work budget is "
        f"{budget:,} commits); a name that lived and died before that is not found"
    )
