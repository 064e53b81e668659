"""Which commit removed a definition the sampled trees last held, following the files it moved to.

A definition held by sample k and gone from the newer sample k-1 (or the head) was dropped between
the two, so each such stretch is read once: one path-limited `git log -p -U0 -G` for all the
definitions of that stretch (the stretches never overlap, so together they read history at most
once). In a file's diff, the newest commit that drops a defining line and adds none back dropped
it from that file. That is not yet a removal: a commit that moves code (`switch to src layout`,
`split web_reqrep.py`) drops the definition from one file and writes it into another. So the
candidate commits are read whole, in one `git show` (which also lists what they defined: the
candidates for a replacement), and a definition that one of them wrote into another source file
moved there: it is followed into that file, from the moving commit up to the same newer end, for a
few moves at most. A definition still defined at the end of its stretch (in a file the samples do
not read as its own, or in a form the sample did not match) gets no removing commit.
"""

from __future__ import annotations

import dataclasses
import re
from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from sextant.gitsource.history_access import HistoryRepository
from sextant.gitsource.history_definitions import (
    CODE_PATHSPECS,
    DefinitionSearch,
    PastDefinition,
    defined_names,
    definition_pattern,
    diffs_naming,
    forwards,
    is_test_or_sample,
    symbol_pattern,
    word_pattern,
)
from sextant.gitsource.history_patches import PATCH_LOG_OPTIONS, CommitRef, commit_file_diffs

Key = TypeVar("Key", bound=Hashable)

MOVES_FOLLOWED = 3
"""Moves of one definition followed at most (a src-layout move, then a split of the module, …)."""


@dataclass
class _Trail:
    """One definition being traced: the file it is in now and the stretch of history still to read."""

    past: PastDefinition
    path: str
    since: str
    """The commit after which to read (a sample, or the commit that moved it here)."""
    until: str
    """The newer end of its stretch (the newer sample, or the head)."""


def attribute_removals(
    repo: HistoryRepository,
    definitions: dict[Key, tuple[PastDefinition, int]],
    samples: list[tuple[str, CommitRef]],
    search: DefinitionSearch,
    max_bytes: int,
) -> dict[Key, tuple[PastDefinition, int]]:
    """Each definition with the commit that removed it and what that commit defined, moves followed.

    Args:
        repo: The opened repository.
        definitions: Anything → (a definition in the newest sample holding it, that sample's index).
        samples: The sampled commits, newest first.
        search: The look-up, whose output bytes are counted (and note set when the budget is spent).
        max_bytes: The look-up's output budget.

    Returns:
        The same keys, each definition with `removed_by` and `added_by_removal` when a removing
        commit was found, and `path` the file it was last defined in (after the moves followed).
    """
    trails = {
        key: _Trail(past, past.path, samples[index][0], samples[index - 1][0] if index > 0 else repo.head)
        for key, (past, index) in definitions.items()
    }
    result = dict(definitions)
    open_keys = set(trails)
    added_by: dict[str, list[tuple[str, list[str]]]] = {}
    for _ in range(MOVES_FOLLOWED + 1):
        if not open_keys:
            break
        candidates = _dropping_commits(repo, {key: trails[key] for key in open_keys}, search, max_bytes)
        added_by.update(_added_lines(repo, {c.sha for c, _ in candidates.values()} - set(added_by), search, max_bytes))
        open_keys = set()
        for key, (commit, dropped) in candidates.items():
            trail = trails[key]
            past = trail.past
            if (moved_to := _moved_to(trail, added_by.get(commit.sha, ()))) is not None:
                trails[key] = _Trail(past, moved_to, commit.sha, trail.until)
                open_keys.add(key)
                continue
            names = _defined_in(added_by.get(commit.sha, ()))
            kept = tuple(name for name in names if name != past.name)
            removed = dataclasses.replace(
                past,
                path=trail.path,
                removed_by=commit,
                added_by_removal=kept,
                defined=past.defined and not forwards(past.name, dropped),
                imported_by_removal=_imported(
                    next((lines for path, lines in added_by.get(commit.sha, ()) if path == trail.path), [])
                ),
            )
            result[key] = (removed, result[key][1])
    return result


def _moved_to(trail: _Trail, added: Iterable[tuple[str, list[str]]]) -> str | None:
    """The other source file the commit wrote the trail's definition into, if any (then it moved there)."""
    return next(
        (
            path
            for path, lines in added
            if path != trail.path
            and not is_test_or_sample(path)
            and any(_same_kind(trail.past, trail.path, path).search(line) for line in lines)
        ),
        None,
    )


def _same_kind(past: PastDefinition, old_path: str, path: str) -> re.Pattern[str]:
    """What a line of another file must be to hold the definition moved there: a symbol for a symbol
    (a method that went is not kept by an attribute of that name elsewhere), a definition for a
    definition, a use for a use."""
    if not past.defined:
        return word_pattern(past.name)
    if symbol_pattern(past.name, old_path).search(past.text):
        return symbol_pattern(past.name, path)
    return definition_pattern(past.name, path)


def _dropping_commits(
    repo: HistoryRepository, trails: dict[Key, _Trail], search: DefinitionSearch, max_bytes: int
) -> dict[Key, tuple[CommitRef, list[str]]]:
    """For each trail, the newest commit of its stretch dropping its definition from its file, and the lines dropped."""
    by_range: dict[tuple[str, str], list[Key]] = defaultdict(list)
    for key, trail in trails.items():
        by_range[(trail.since, trail.until)].append(key)
    found: dict[Key, tuple[CommitRef, list[str]]] = {}
    for (since, until), keys in sorted(by_range.items(), key=lambda item: str(item[0])):
        names = {trails[key].past.name for key in keys}
        paths = {trails[key].path for key in keys}
        # A file a definition moved to may have lived on a side branch only (added and removed there):
        # the merge then changes nothing of it, and a simplified path-limited log would prune that branch.
        full = any(trails[key].path != trails[key].past.path for key in keys)
        out = diffs_naming(repo, names, paths, f"{since}..{until}", full_history=full)
        found.update(_dropped(_counted(out, search, max_bytes), {key: trails[key] for key in keys}))
    return found


def _counted(out: bytes, search: DefinitionSearch, max_bytes: int) -> str:
    """A log's text, cut to what is left of the output budget (which it is counted against)."""
    if search.bytes_read + len(out) > max_bytes:
        search.note = f"history search read only the first {max_bytes / 2**20:,.0f} MiB of diffs (its output budget)"
        out = out[: max(0, max_bytes - search.bytes_read)]
    search.bytes_read += len(out)
    return out.decode("utf-8", "replace")


def _dropped(log: str, trails: dict[Key, _Trail]) -> dict[Key, tuple[CommitRef, list[str]]]:
    """For each trail, the newest commit of the log whose diff of its file drops its definition and adds none back."""
    found: dict[Key, tuple[CommitRef, list[str]]] = {}
    for commit, path, removed, added in commit_file_diffs(log):
        for key, trail in trails.items():
            if key in found or path != trail.path:
                continue
            past = trail.past
            pattern = definition_pattern(past.name, path) if past.defined else word_pattern(past.name)
            if any(pattern.search(line) for line in removed) and not any(pattern.search(line) for line in added):
                found[key] = (commit, removed)
    return found


def _added_lines(
    repo: HistoryRepository, shas: set[str], search: DefinitionSearch, max_bytes: int
) -> dict[str, list[tuple[str, list[str]]]]:
    """Each commit's added lines per source file (one `git show` for all the commits)."""
    if not shas:
        return {}
    out = repo.git(
        [
            "show",
            *PATCH_LOG_OPTIONS,
            *sorted(shas),
            "--",
            *CODE_PATHSPECS,
        ]
    )[: max(0, max_bytes - search.bytes_read)]
    search.bytes_read += len(out)
    added: dict[str, list[tuple[str, list[str]]]] = {sha: [] for sha in shas}
    for commit, path, _, lines in commit_file_diffs(out.decode("utf-8", "replace")):
        added.setdefault(commit.sha, []).append((path, lines))
    return added


_ABSOLUTE_IMPORT = re.compile(
    r"^\s*(?:from\s+([A-Za-z_]\w*)[\w.]*\s+import\b|import\s+([A-Za-z_]\w*))"  # Python
    r"|(?:\bfrom\s+|\brequire\(\s*)['\"]((?:@[\w.-]+/)?[\w.-]+)"  # JavaScript, TypeScript
)


def _imported(lines: Iterable[str]) -> tuple[str, ...]:
    """The top-level packages added lines import absolutely (`from werkzeug.wrappers.json import …`: werkzeug)."""
    roots: list[str] = []
    for line in lines:
        if (match := _ABSOLUTE_IMPORT.search(line)) is not None:
            root = next(group for group in match.groups() if group)
            if not root.startswith(".") and root not in roots:
                roots.append(root)
    return tuple(roots)


def _defined_in(files: Iterable[tuple[str, list[str]]]) -> list[str]:
    names: list[str] = []
    for _, lines in files:
        names.extend(name for name in defined_names(lines) if name not in names)
    return names
