"""`sextant analyze` after its analysis is printed: the doc claims judged again once the history is fetched.

A blob-less mirror's first run publishes its analysis before the history fetch that follows it ends,
so that analysis's doc claims are judged at the head alone. Its ChunksIndexed says a fetch follows
(``history_fetch_follows``); the command then waits, with the vectors, for the run's
DocClaimsRejudged and says what changed: ``doc claims revised with history: +2 contradicted,
-2 unverifiable`` (the revised analysis is then the current one: ``sextant show``; ``--out`` is
rewritten with it), or that nothing changed. See docs/analysis.md, "Revised with history".
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import typer

from sextant.cli.describe import history_caveat
from sextant.contracts import AnalysisCompleted, AnyEvent, ChunksIndexed, DocClaimsRejudged, Event

_STATUSES = ("contradicted", "outdated", "unverifiable", "verified")


def fetch_follows(heard: Sequence[AnyEvent]) -> bool:
    """Whether the run's ChunksIndexed (among the events heard) says a history fetch follows it."""
    return any(isinstance(event, ChunksIndexed) and event.history_fetch_follows for event in heard)


def rejudged_line(event: DocClaimsRejudged) -> str:
    """What the second judgement changed, in one line.

    Args:
        event: The run's DocClaimsRejudged.

    Returns:
        ``doc claims revised with history: +2 contradicted, -2 unverifiable``, or why nothing was.
    """
    if not event.revised:
        if event.reason == "" or "unchanged" in event.reason:
            return "doc claims judged again with history: nothing changed"
        return f"doc claims not judged again: {event.reason}"
    changes = []
    for status in _STATUSES:
        delta = event.claims_after.get(status, 0) - event.claims_before.get(status, 0)
        if delta:
            changes.append(f"{delta:+d} {status}")
    line = "doc claims revised with history: " + (", ".join(changes) or "same counts by status, other evidence")
    if event.history_note:
        line += f" ({history_caveat(event.history_note)})"  # the fetch's budget, or the history search's own
    return line


class RevisionWatch:
    """Hears the run's later events and reports the revision of its doc claims.

    Args:
        out: The file the analysis was written to (rewritten with a revised analysis), or None.
        quiet: ``--json``: say nothing (the revised analysis is in the stream).
    """

    def __init__(self, *, out: Path | None, quiet: bool) -> None:
        self.out = out
        self.quiet = quiet
        self.revised: AnalysisCompleted | None = None
        self.rejudged: DocClaimsRejudged | None = None

    def wanted(self, heard: Sequence[AnyEvent]) -> tuple[type[Event], ...]:
        """The events to wait for besides the summary and vectors: DocClaimsRejudged when a fetch follows."""
        return (DocClaimsRejudged,) if fetch_follows(heard) else ()

    def on_event(self, event: AnyEvent) -> None:
        """Note a revised analysis; report the DocClaimsRejudged once it arrives."""
        if isinstance(event, AnalysisCompleted) and event.provenance.revision_of is not None:
            self.revised = event
        if isinstance(event, DocClaimsRejudged) and self.rejudged is None:
            self.rejudged = event
            self._report(event)

    def _report(self, event: DocClaimsRejudged) -> None:
        if self.quiet:
            return
        typer.echo(f"sextant: {rejudged_line(event)}", err=True)
        if not event.revised:
            return
        revised = self.revised
        if self.out is not None and revised is not None and revised.event_id == event.analysis_event_id:
            self.out.write_text(revised.markdown)
            typer.echo(f"sextant: wrote the revised analysis to {self.out}", err=True)
        typer.echo("sextant: the revised analysis is now the current one (`sextant show`)", err=True)


NO_WAIT_REVISION_NOTE = (
    "--no-wait: this first run's doc claims are judged again once its history fetch ends, which may be "
    "after this command; then when the services next run (`sextant up`, or the next `sextant analyze`). "
    "`sextant show` prints the current analysis"
)
"""What ``analyze --no-wait`` says when the run's history fetch follows: the revision may come later."""


class FetchFollows:
    """For ``--no-wait``: hears whether the run's history fetch follows its indexing, and waits for nothing.

    The analysis then says its doc claims were judged without the history and that a revision
    follows; without waiting, the command must say when that revision can come.
    """

    def __init__(self) -> None:
        self.follows = False

    def wanted(self, heard: Sequence[AnyEvent]) -> tuple[type[Event], ...]:
        """Note whether a fetch follows; nothing more to wait for."""
        self.follows = fetch_follows(heard)
        return ()

    def on_event(self, event: AnyEvent) -> None:
        """Nothing to hear after the result."""
        del event
