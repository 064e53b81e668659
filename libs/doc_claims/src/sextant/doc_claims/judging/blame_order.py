"""Which docs the blame budget is spent on: those where a line's date can turn a claim outdated.

Blame is the costliest step of the outdated check, so its budget covers a few docs of a long
history (`HistoryBudget.blame_commits`). A claim can come out outdated only for a name the doc
writes as code about it that its definition does not take at the head (see _suspects in
definition_changes): that is known from the claims and the head alone, before any blame and
without reading history. A doc none of whose claims writes such a name cannot gain an alarm from
blame, so the budget goes to the others, those with the most such claims first; which docs those
are depends on the repository alone, never on the machine.

(A log of the definitions' files telling which of those names some commit ever dropped sharpened
the choice, but walking the whole history with patches cost two recency scans on git/git.)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

Suspect = tuple[str, str]
"""(a name the doc writes that the definition does not take now, the definition's file)."""


def docs_worth_blaming(suspects: Mapping[str, Sequence[Collection[Suspect]]]) -> list[str]:
    """The docs whose claims' lines are worth blaming, the most promising first.

    Args:
        suspects: Doc → one collection per claim of the names it may have lost, with their files.

    Returns:
        The docs with a claim that writes such a name, ordered by how many such claims they hold
        (most first), then by path.
    """
    promising = {doc: sum(1 for claim in claims if claim) for doc, claims in suspects.items()}
    return sorted((doc for doc, count in promising.items() if count), key=lambda doc: (-promising[doc], doc))
