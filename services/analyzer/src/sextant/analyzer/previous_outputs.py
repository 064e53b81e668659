"""The last analysis and summary already published for a repository, read back from the stream.

An analysis whose inputs have not changed is not written again (docs/analysis.md, "Fingerprint"):
the analyzer compares the fingerprint of what it is about to write with the last one on the
repository's subject. The stream keeps every event, so the last message on
``sextant.analysis.completed.<repo_key>`` is the current analysis.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from nats.js.errors import NotFoundError

from sextant.bus import Bus
from sextant.contracts import STREAM_NAME, AnalysisCompleted, Event, SummaryCompleted, subject_pattern

OutputT = TypeVar("OutputT", bound=Event)


class PreviousOutputs(Protocol):
    """Where the analyzer finds the current analysis and summary of a repository."""

    async def last_analysis(self, repo_key: str) -> AnalysisCompleted | None:
        """The last AnalysisCompleted on the repository's subject, or None."""
        ...

    async def last_summary(self, repo_key: str) -> SummaryCompleted | None:
        """The last SummaryCompleted on the repository's subject, or None."""
        ...


class NoPreviousOutputs:
    """No history: every selection is written afresh (tests of the writing alone, one-off runs)."""

    async def last_analysis(self, repo_key: str) -> AnalysisCompleted | None:
        """Always None."""
        return None

    async def last_summary(self, repo_key: str) -> SummaryCompleted | None:
        """Always None."""
        return None


class StreamOutputs:
    """Reads the last output events from the JetStream stream the bus publishes to.

    Args:
        bus: The connected bus (its claim check restores outputs too large for one message).
    """

    def __init__(self, bus: Bus) -> None:
        self._bus = bus

    async def last_analysis(self, repo_key: str) -> AnalysisCompleted | None:
        """The last AnalysisCompleted on the repository's subject, or None."""
        return await self._last(AnalysisCompleted, repo_key)

    async def last_summary(self, repo_key: str) -> SummaryCompleted | None:
        """The last SummaryCompleted on the repository's subject, or None."""
        return await self._last(SummaryCompleted, repo_key)

    async def _last(self, event_type: type[OutputT], repo_key: str) -> OutputT | None:
        try:
            raw = await self._bus.js.get_last_msg(STREAM_NAME, subject_pattern(event_type, repo_key))
        except NotFoundError:
            return None
        event = await self._bus.decode(raw.data or b"", dict(raw.headers or {}))
        return event if isinstance(event, event_type) else None
