"""Which docs the blame budget is spent on: those where a line's date can turn a claim outdated.

Blame is the costliest step of the outdated check, so its budget covers a few docs of a long
history (`HistoryBudget.blame_commits`). A claim can come out outdated only when the doc writes,
as code about it, a name its definition does not take at the head, and a commit of the
definition's file dropped that name in the form it is lost in (lost_forms). Both are known before
any blame: the doc's words and the head's parameters from the claims, the drops from one
path-limited patch log of the definitions' files. A doc none of whose claims has such a name cannot
gain an alarm from blame, so the budget goes to the others, the most promising first; which docs
those are depends on the repository alone, never on the machine.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence

from sextant.doc_claims.judging.lost_forms import LOSSES, drops, lost_form
from sextant.gitsource.history_access import HistoryRepository
from sextant.gitsource.history_file_diffs import file_history_diffs
from sextant.gitsource.history_patches import commit_file_diffs

Suspect = tuple[str, str]
"""(a name the doc writes that the definition does not take now, the definition's file)."""

_WORD = re.compile(r"[A-Za-z_$][\w$]*")


def docs_worth_blaming(
    repo: HistoryRepository, suspects: Mapping[str, Sequence[Collection[Suspect]]], max_bytes: int
) -> list[str]:
    """The docs whose claims' lines are worth blaming, the most promising first.

    Args:
        repo: The opened repository.
        suspects: Doc → one collection per claim of the names it may have lost, with their files.
        max_bytes: Cap on the log text read (newest commits first).

    Returns:
        The docs with a claim one of whose names some commit of its file dropped, ordered by how
        many such claims they hold (most first), then by path.
    """
    wanted: dict[str, set[str]] = defaultdict(set)
    for claims in suspects.values():
        for claim in claims:
            for word, path in claim:
                wanted[path].add(word)
    if not wanted:
        return []
    log = file_history_diffs(repo, wanted.keys(), max_bytes)
    dropped = dropped_names(log.decode("utf-8", "replace"), wanted)
    promising = {
        doc: sum(1 for claim in claims if any(suspect in dropped for suspect in claim))
        for doc, claims in suspects.items()
    }
    return sorted((doc for doc, count in promising.items() if count), key=lambda doc: (-promising[doc], doc))


def dropped_names(log: str, wanted: Mapping[str, Collection[str]]) -> set[Suspect]:
    """The (name, file) pairs some commit of a `-p -U0` log dropped as a parameter or a member.

    Args:
        log: The log's text (see diffs_naming).
        wanted: File → the names to look for in its diffs.

    Returns:
        The pairs dropped at least once.
    """
    found: set[Suspect] = set()
    for _commit, path, removed, added in commit_file_diffs(log):
        names = wanted.get(path)
        if not names:
            continue
        written = {word for line in removed for word in _WORD.findall(line)}
        for name in written.intersection(names):
            if (name, path) not in found and any(drops(lost_form(name, what), removed, added) for what in LOSSES):
                found.add((name, path))
    return found
