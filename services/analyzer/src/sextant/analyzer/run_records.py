"""One run's events read back from the stream: its ChunksIndexed, analysis selection and analyses.

The reviser (``sextant.analyzer.revision``) needs the selection an analysis was written from and the
analyses already published for the run. Every event sits on its repository's subject, and a run's
selection and analyses come after its ChunksIndexed, so they are found from that event's stream
sequence on with JetStream's "next message on this subject" look-up: a few reads, whatever the
stream's length.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from nats.js.errors import NotFoundError

from sextant.bus import Bus
from sextant.contracts import (
    STREAM_NAME,
    AnalysisCompleted,
    ChunksIndexed,
    ChunksSelected,
    Event,
    StageFailed,
    subject_pattern,
)

EventT = TypeVar("EventT", bound=Event)


@dataclass(frozen=True)
class RunRecords:
    """What the stream holds of one run, from its ChunksIndexed on."""

    indexed: bool = False
    """The repository's last ChunksIndexed is this run's."""
    superseded: bool = False
    """The repository's last ChunksIndexed is a later run's (published after ``since``)."""
    known_repository: bool = True
    """The stream holds a ChunksIndexed of the repository at all."""
    selection: ChunksSelected | None = None
    """The run's analysis selection."""
    analyses: list[AnalysisCompleted] = field(default_factory=list)
    """The run's analyses, in stream order (the first written, then any revision)."""
    analyzer_failed: StageFailed | None = None
    """The analyzer's StageFailed of the run (nothing to analyse), if any."""


class StreamRuns:
    """Reads a run's records from the stream of a connected bus."""

    def __init__(self, bus: Bus) -> None:
        self._bus = bus

    async def records(self, repo_key: str, run_id: str, since: str) -> RunRecords:
        """The run's records as the stream holds them now.

        Args:
            repo_key: The repository.
            run_id: The run.
            since: When the run's HistoryHydrated occurred: a ChunksIndexed of another run published
                later is a later run's; one published earlier means this run's is not stored yet.

        Returns:
            What was found (nothing but ``superseded`` when a later run indexed the repository since).
        """
        last = await self._last(ChunksIndexed, repo_key)
        if last is None:
            return RunRecords(known_repository=False)
        sequence, indexed = last
        if indexed.run_id != run_id:
            return RunRecords(superseded=indexed.occurred_at >= since)
        selections = await self._run_events(ChunksSelected, repo_key, run_id, sequence)
        analyses = await self._run_events(AnalysisCompleted, repo_key, run_id, sequence)
        failures = await self._run_events(StageFailed, repo_key, run_id, sequence)
        return RunRecords(
            indexed=True,
            selection=next((s for s in selections if s.purpose == "analysis"), None),
            analyses=analyses,
            analyzer_failed=next((f for f in failures if f.stage == "analyzer"), None),
        )

    async def _last(self, event_type: type[EventT], repo_key: str) -> tuple[int, EventT] | None:
        try:
            raw = await self._bus.js.get_last_msg(STREAM_NAME, subject_pattern(event_type, repo_key))
        except NotFoundError:
            return None
        event = await self._bus.decode(raw.data or b"", dict(raw.headers or {}))
        if not isinstance(event, event_type) or raw.seq is None:
            return None
        return raw.seq, event

    async def _run_events(self, event_type: type[EventT], repo_key: str, run_id: str, after: int) -> list[EventT]:
        """Every event of the type and run stored after sequence ``after`` on the repository's subject."""
        subject = subject_pattern(event_type, repo_key)
        found: list[EventT] = []
        sequence = after + 1
        while True:
            try:
                raw = await self._bus.js.get_msg(STREAM_NAME, seq=sequence, subject=subject, next=True)
            except NotFoundError:
                return found
            if raw.seq is None:
                return found
            event = await self._bus.decode(raw.data or b"", dict(raw.headers or {}))
            if isinstance(event, event_type) and event.run_id == run_id:
                found.append(event)
            sequence = raw.seq + 1
