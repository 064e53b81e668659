"""Reading a run's results off a real stream, as they arrive (no fixed waits, no polling)."""

from __future__ import annotations

from sextant.bus import Bus
from sextant.contracts import AnalysisCompleted, ChunksIndexed, DocClaimsRejudged, StageFailed, SummaryCompleted


async def analysis_outputs(bus: Bus, run_id: str) -> tuple[AnalysisCompleted, SummaryCompleted]:
    """The run's analysis and summary, read from the stream as they arrive.

    Args:
        bus: A bus on the server the run publishes to.
        run_id: The run to wait for.

    Returns:
        Its AnalysisCompleted and SummaryCompleted (fails at once on a StageFailed of the run).
    """
    analysis = summary = None
    async for _, event, _ in bus.read("sextant.>", follow=True):
        if event is None or event.run_id != run_id:
            continue
        assert not isinstance(event, StageFailed), f"{event.stage} failed: {event.reason}"
        if isinstance(event, AnalysisCompleted):
            analysis = event
        if isinstance(event, SummaryCompleted):
            summary = event
        if analysis and summary:
            return analysis, summary
    raise AssertionError("the stream ended before the run's outputs")


async def settled_analysis(bus: Bus, run_id: str) -> tuple[AnalysisCompleted, SummaryCompleted]:
    """The run's analysis as it stands once the run is over, and its summary.

    A first run on a blob-less mirror fetches its history after its ChunksIndexed; its doc claims
    are then judged again (DocClaimsRejudged), and a revised analysis replaces the first when they
    changed. This waits for that too, when the run's ChunksIndexed says a fetch follows.
    """
    analysis = summary = None
    follows = False
    rejudged: DocClaimsRejudged | None = None
    async for _, event, _ in bus.read("sextant.>", follow=True):
        if event is None or event.run_id != run_id:
            continue
        assert not isinstance(event, StageFailed), f"{event.stage} failed: {event.reason}"
        if isinstance(event, ChunksIndexed):
            follows = event.history_fetch_follows
        if isinstance(event, AnalysisCompleted):
            analysis = event  # a revision comes after the first
        if isinstance(event, SummaryCompleted):
            summary = event
        if isinstance(event, DocClaimsRejudged):
            rejudged = event
        if analysis and summary and (rejudged is not None or not follows):
            return analysis, summary
    raise AssertionError("the stream ended before the run's outputs")
