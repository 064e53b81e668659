"""The repository's history as a judge of claims: one object holding the repository and its budgets."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from sextant.doc_claims.claims.claim import Claim
from sextant.doc_claims.judging.checking import Resolution
from sextant.doc_claims.judging.code_facts import CodeFacts
from sextant.doc_claims.judging.definition_changes import DocLines, revise_with_definition_changes
from sextant.doc_claims.judging.past_names import absent_names, revise_with_past_names
from sextant.doc_claims.judging.past_packages import revise_with_past_packages
from sextant.gitsource.history_access import HistoryRepository
from sextant.gitsource.history_definitions import (
    DEFAULT_HISTORY_BYTES,
    DEFAULT_HISTORY_SECONDS,
    find_past_definitions,
)


@dataclass
class RepositoryHistory:
    """Judges claims with a repository's history (see docs/doc-claims.md for the rules and budgets)."""

    repo: HistoryRepository
    doc_commits: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Doc path → (its last commit, that commit's date): the doc's side of "changed since"."""
    max_bytes: int = DEFAULT_HISTORY_BYTES
    max_seconds: float = DEFAULT_HISTORY_SECONDS
    doc_texts: dict[str, DocLines] = field(default_factory=dict)
    """Doc path → its text, so a lost parameter counts only where the doc uses it."""
    note: str | None = None
    """Why the history look-up was skipped or cut short, once judge has run."""
    cost: dict[str, float] = field(default_factory=dict)
    """What the look-ups cost: trees searched, bytes read, seconds of the name look-up, and
    judge_seconds for everything history added (look-up, past names, definition changes)."""

    def judge(self, judged: list[tuple[Claim, Resolution]], facts: CodeFacts) -> list[tuple[Claim, Resolution]]:
        """Revise resolutions with history: absent names once defined, definitions changed since the doc.

        Args:
            judged: Claims with their resolutions at the head.
            facts: The head's code facts.

        Returns:
            The revised claims and resolutions, in the same order.
        """
        started = time.monotonic()
        search = find_past_definitions(
            self.repo,
            absent_names(judged),
            used=facts.identifiers.keys(),
            max_bytes=self.max_bytes,
            max_seconds=self.max_seconds,
        )
        self.note = search.note
        self.cost = {"trees": search.trees, "bytes": search.bytes_read, "seconds": search.seconds}
        judged = revise_with_past_names(judged, facts, search)
        judged = revise_with_past_packages(judged, facts, self.repo)
        revised = revise_with_definition_changes(
            judged, facts, self.repo, self.doc_commits, self.doc_texts, max_bytes=self.max_bytes
        )
        self.cost["judge_seconds"] = time.monotonic() - started
        return revised
