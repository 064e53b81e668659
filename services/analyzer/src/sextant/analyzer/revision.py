"""On HistoryHydrated: judge the run's doc claims again, now that the history is in the mirror.

A blob-less mirror's first run publishes ChunksIndexed before it fetches the history, so that run's
first analysis judges doc claims at the head alone, and its findings say the history was still being
fetched. When the fetch ends the indexer publishes HistoryHydrated; this handler re-reads the index
with the history as it now is, from the run's own analysis selection, and compares the findings
with those of the run's published analysis:

- changed (a status, a removing commit, a replacement or a change; the evidence's wording alone is
  no change): a revised AnalysisCompleted of the run is written the usual way (its fingerprint differs,
  as the findings are an input, so the model is asked once; with no model the evidence report is
  rebuilt), its provenance naming the analysis it revises; then DocClaimsRejudged, ``revised``;
- unchanged: no analysis and no model call; DocClaimsRejudged says so.

A later run's analysis that is already current is left alone (it read the history itself). A
redelivery after a crash finds the revision already stored and publishes the same DocClaimsRejudged
(same id, stored once), with no model call. A HistoryHydrated that names no commit, or a repository
the stream never indexed, is parked with the reason. See docs/analysis.md, "Revised with history".
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Protocol

import msgspec

from sextant.analyzer.handlers import Revision, Writing, judge_analysis, write_analysis
from sextant.analyzer.run_records import RunRecords
from sextant.contracts import (
    AnalysisCompleted,
    DocClaim,
    DocClaimsRejudged,
    Event,
    EventParked,
    HistoryHydrated,
    event_id_for,
    subject_for,
    utc_now_iso,
)
from sextant.doc_claims import doc_claims

logger = logging.getLogger(__name__)

DURABLE = "analysis-reviser"
WAIT_POLL_SECONDS = 0.5
"""How often the reviser looks again for a run's analysis that is not published yet."""
_STATUSES = ("verified", "contradicted", "outdated", "unverifiable")
_SUPERSEDED = "a later run indexed the repository since; its analysis reads the history"


class RunLookup(Protocol):
    """Where the reviser reads a run's records (the stream)."""

    async def records(self, repo_key: str, run_id: str, since: str) -> RunRecords:
        """The run's ChunksIndexed, analysis selection and analyses as stored now (see `StreamRuns`)."""
        ...


@dataclass(frozen=True)
class Reviser:
    """What re-judging takes: the analyzer's writing parts, where runs are read, how long to wait."""

    writing: Writing
    runs: RunLookup
    wait_seconds: float = 900.0
    """How long to wait for the run's first analysis when the history came first (then: nothing revised)."""


def revision_id(event: HistoryHydrated) -> str:
    """The event id of the analysis revised for one HistoryHydrated (one per run and fetch)."""
    return event_id_for(AnalysisCompleted, event.run_id, "history", event.event_id)


def claims_by_status(claims: list[DocClaim]) -> dict[str, int]:
    """verified / contradicted / outdated / unverifiable → count."""
    return {status: sum(1 for claim in claims if claim.status == status) for status in _STATUSES}


def _parked(event: HistoryHydrated, reason: str) -> EventParked:
    return EventParked(
        event_id=event_id_for(EventParked, event.run_id, DURABLE, event.event_id),
        run_id=event.run_id,
        occurred_at=utc_now_iso(),
        repo=event.repo,
        consumer=DURABLE,
        subject=subject_for(event),
        reason=reason,
    )


def _rejudged(
    event: HistoryHydrated,
    *,
    before: list[DocClaim],
    after: list[DocClaim],
    revised: AnalysisCompleted | None,
    history_note: str | None,
    reason: str = "",
) -> DocClaimsRejudged:
    return DocClaimsRejudged(
        event_id=event_id_for(DocClaimsRejudged, event.run_id, event.event_id),
        run_id=event.run_id,
        occurred_at=utc_now_iso(),
        repo=event.repo,
        head_sha=event.head_sha,
        revised=revised is not None,
        analysis_event_id=revised.event_id if revised is not None else None,
        claims_before=claims_by_status(before),
        claims_after=claims_by_status(after),
        history_note=history_note,
        reason=reason,
    )


def _nothing_to_revise(event: HistoryHydrated, reason: str) -> DocClaimsRejudged:
    logger.info("doc claims of run %s not judged again: %s", event.run_id, reason)
    return _rejudged(event, before=[], after=[], revised=None, history_note=event.note, reason=reason)


async def _records_once_written(event: HistoryHydrated, reviser: Reviser) -> RunRecords:
    """The run's records once its first analysis is out (or it failed, or a later run took over, or time ran out).

    The fetch may end before the selector or the analyzer has answered the run's ChunksIndexed (a
    small history): then the analysis being written is the one to revise, so it is waited for.
    """
    deadline = time.monotonic() + reviser.wait_seconds
    while True:
        records = await reviser.runs.records(event.repo.repo_key, event.run_id, event.occurred_at)
        written = bool(records.analyses) or records.analyzer_failed is not None
        settled = written or records.superseded or not records.known_repository
        if settled or time.monotonic() >= deadline:
            return records
        await asyncio.sleep(WAIT_POLL_SECONDS)


async def on_history_hydrated(event: HistoryHydrated, reviser: Reviser) -> list[Event]:
    """Judge the run's doc claims again; publish a revised analysis only when the findings changed.

    Args:
        event: The end of the run's history fetch.
        reviser: The analyzer's writing parts and the run look-up.

    Returns:
        [revised AnalysisCompleted, DocClaimsRejudged], or [DocClaimsRejudged], or [EventParked].
    """
    if not event.head_sha or not event.run_id:
        return [_parked(event, "malformed HistoryHydrated: it names no commit or run")]
    records = await _records_once_written(event, reviser)
    early = _without_judging(event, records, reviser)
    if early is not None or records.selection is None:
        return [early or _nothing_to_revise(event, "the run has no analysis selection")]
    first, revised = records.analyses[0], revision_of(records.analyses, event)
    if revised is not None:  # a redelivery: the revision is stored, only its news may be missing
        return [
            _rejudged(
                event,
                before=first.doc_claims,
                after=revised.doc_claims,
                revised=revised,
                history_note=revised.provenance.doc_history_note,
            )
        ]
    judged = await judge_analysis(records.selection, reviser.writing)
    claims = doc_claims(judged.evidence.doc_report.findings)
    note = judged.evidence.doc_report.history_note
    if _findings(claims) == _findings(first.doc_claims):
        return [
            _rejudged(
                event,
                before=first.doc_claims,
                after=claims,
                revised=None,
                history_note=note,
                reason="the doc-claim findings are unchanged",
            )
        ]
    revision = Revision(event_id=revision_id(event), revises=first.event_id)
    analysis = await write_analysis(records.selection, reviser.writing, judged, revision=revision)
    if (await reviser.runs.records(event.repo.repo_key, event.run_id, event.occurred_at)).superseded:
        return [_nothing_to_revise(event, _SUPERSEDED)]  # a later analysis came meanwhile: it stays current
    return [analysis, _rejudged(event, before=first.doc_claims, after=claims, revised=analysis, history_note=note)]


def _findings(claims: list[DocClaim]) -> list[DocClaim]:
    """What the claims' findings say, without their evidence's wording: a name still unverifiable whose
    evidence now says how far the history was searched, instead of that it was still being fetched,
    is no new finding, and a revision for it would be a model call for nothing."""
    return [msgspec.structs.replace(claim, evidence="") for claim in claims]


def _without_judging(event: HistoryHydrated, records: RunRecords, reviser: Reviser) -> Event | None:
    """The answer when there is nothing to judge again (or nothing to judge with), else None."""
    if not records.known_repository:
        return _parked(event, f"unknown repository {event.repo.repo_key}: the stream holds no index run of it")
    if records.superseded:
        return _nothing_to_revise(event, _SUPERSEDED)
    if records.analyzer_failed is not None and not records.analyses:
        return _nothing_to_revise(event, f"the run has no analysis ({records.analyzer_failed.reason})")
    if records.selection is None or not records.analyses:
        return _nothing_to_revise(event, f"no analysis of the run was published within {reviser.wait_seconds:.0f} s")
    return None


def revision_of(analyses: list[AnalysisCompleted], event: HistoryHydrated) -> AnalysisCompleted | None:
    """The analysis already revised for this HistoryHydrated, if the stream holds it."""
    wanted = revision_id(event)
    return next((analysis for analysis in analyses if analysis.event_id == wanted), None)
