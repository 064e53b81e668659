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
that commit added are the candidates for its replacement. Every call is bounded by this pass's own
time budget and by the look-up's byte cap: when either runs out, the newer stretches read so far
stand and `between_note` says how far back the pass reached. A pass cut short never weakens what
the sampled look-up decided (that is `note`): it only finds fewer of the names the samples missed.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Collection

from sextant.gitsource.errors import GitSourceError, GitTimeoutError
from sextant.gitsource.history_access import HistoryRepository
from sextant.gitsource.history_definitions import (
    CODE_PATHSPECS,
    DefinitionSearch,
    PastDefinition,
    defined_names,
    definition_pattern,
    forwards,
    is_test_or_sample,
    word_pattern,
)
from sextant.gitsource.history_patches import LOG_FORMAT, PINNED_DIFF_OPTIONS, CommitRef, commit_file_diffs

DEFAULT_BETWEEN_SECONDS = 2.0
"""Budget of the pass between the samples: a history of a few thousand commits is read whole well
within it; on git/git's 82k commits it reaches back as far as it can (bench/history measures it)."""


def search_between_samples(
    repo: HistoryRepository,
    search: DefinitionSearch,
    *,
    used: Collection[str] = frozenset(),
    max_bytes: int,
    max_seconds: float,
) -> DefinitionSearch:
    """Look for the names no sampled tree held in the commits between the samples, newest first.

    Args:
        repo: The opened repository.
        search: The sampled look-up's result (its `samples`, `found` and `searched`); updated in place
            (`found`, `bytes_read`, `seconds`, `between_note`).
        used: Names the head's code still uses (left out: their uses are no news).
        max_bytes: Cap on the git output the whole look-up reads (this pass adds to `bytes_read`).
        max_seconds: Seconds this pass may take.

    Returns:
        The same search, with the names this pass found added to `found`.
    """
    samples = search.samples
    names = sorted(set(search.searched) - set(search.found) - set(used))
    if not samples or not names or search.note is not None:
        return search  # nothing left to find, or the sampled look-up already spent its budget
    started = time.monotonic()
    deadline = started + max_seconds
    regex = r"(^|[^A-Za-z0-9_$])(" + "|".join(_ere_escape(name) for name in names) + r")([^A-Za-z0-9_$]|$)"
    found: dict[str, PastDefinition] = {}
    named: dict[str, PastDefinition] = {}
    newer = repo.head
    for index, (oldest, _) in enumerate(samples):
        remaining = deadline - time.monotonic()
        if remaining <= 0 or search.bytes_read > max_bytes:
            search.between_note = _reached_note(index, samples, max_seconds)
            break
        try:
            out = dataclasses.replace(repo, timeout=remaining).git(
                [
                    "log",
                    "--first-parent",
                    "--diff-merges=first-parent",
                    "-p",
                    "-U0",
                    *PINNED_DIFF_OPTIONS,
                    "--no-ext-diff",
                    "--no-textconv",
                    "--no-renames",
                    "--no-color",
                    LOG_FORMAT,
                    f"-G{regex}",
                    f"{oldest}..{newer}",
                    "--",
                    *CODE_PATHSPECS,
                ]
            )
        except GitTimeoutError:
            search.between_note = _reached_note(index, samples, max_seconds)
            break
        except GitSourceError as error:  # a blob a partial clone lacks (never fetched): stop here
            search.between_note = f"history between the sampled trees not read past {index} stretches: {error}"
            break
        if search.bytes_read + len(out) > max_bytes:
            out = out[: max(0, max_bytes - search.bytes_read)]
            search.between_note = f"history between the sampled trees read only up to the {max_bytes:,}-byte cap"
        search.bytes_read += len(out)
        _read_removals(out.decode("utf-8", "replace"), names, found, named)
        newer = oldest
        if len(found) == len(names) or search.between_note is not None:
            break
    for name, past in named.items():
        found.setdefault(name, past)  # only ever used, not defined: weaker (a parameter counts, see past_names)
    search.found = {**search.found, **found}
    search.seconds += time.monotonic() - started
    return search


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


def _ere_escape(name: str) -> str:
    """A name as a POSIX extended regular expression (what `git log -G` takes)."""
    return re.sub(r"([$.])", r"\\\1", name)


def _reached_note(index: int, samples: list[tuple[str, CommitRef]], max_seconds: float) -> str:
    reached = samples[index - 1][1].day[:10] if index > 0 else "the head"
    return (
        f"history between the sampled trees read back to {reached} within its budget ({max_seconds:g} s); "
        "a name that lived and died before that is not found"
    )
