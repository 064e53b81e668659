"""One readable line per event, for `sextant events` and progress output."""

from __future__ import annotations

from typing import assert_never

from sextant.contracts import (
    AnalysisCompleted,
    AnyEvent,
    ChunksEmbedded,
    ChunksIndexed,
    ChunksSelected,
    DocClaimsRejudged,
    EventParked,
    FileRecencyComputed,
    HistoryHydrated,
    RepoUpdated,
    ReviewCompleted,
    ReviewRequested,
    StageFailed,
    SummaryCompleted,
)


def skipped_files(event: ChunksIndexed) -> str:
    """``3 binary, 120 vendored or generated``: the files left out per reason (empty when none)."""
    return ", ".join(f"{group.count} {group.reason}" for group in event.skipped)


def skipped_counts(event: ChunksIndexed) -> str:
    """`` (skipped: 3 binary, 120 vendored or generated)``, or nothing when no file was skipped."""
    skipped = skipped_files(event)
    return f" (skipped: {skipped})" if skipped else ""


_CLAIM_STATUSES = ("contradicted", "outdated", "unverifiable", "verified")


def history_caveat(note: str) -> str:
    """``history: <note>``, or the note alone when it already starts with the word (most do)."""
    return note if note.startswith("history") else f"history: {note}"


def plural(count: int, noun: str) -> str:
    """``1 embedding call``, ``3 embedding calls``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def chunks_indexed(event: ChunksIndexed) -> str:
    """What the index run did to the files and points, leaving out the counts that are zero.

    ``163 files: 159 added, 4 unchanged (skipped: 2 binary); 3182 chunks written; recency computed; 2.8s``
    — a line that names every zero ran past two terminal widths and hid the counts that mattered.
    """
    files = [
        f"{count} {what}"
        for count, what in (
            (event.files_added, "added"),
            (event.files_changed, "changed"),
            (event.files_unchanged, "unchanged"),
            (event.files_deleted, "deleted"),
            (len(event.failed_files), "failed"),
        )
        if count
    ]
    if event.files_restamped:
        files.append(f"{event.files_restamped} re-dated")
    points = f"{plural(event.chunks_upserted, 'chunk')} written" + (
        f", {event.chunks_deleted} removed" if event.chunks_deleted else ""
    )
    calls = f"; {plural(event.embedding_calls, 'embedding call')}" if event.embedding_calls else ""
    follows = "; history fetch follows" if event.history_fetch_follows else ""
    return (
        f"{event.files_seen} files: {', '.join(files) or 'nothing to index'}{skipped_counts(event)}; {points}{calls}; "
        f"recency {event.recency_status}; {event.duration_seconds:.1f}s{follows}"
    )


def history_hydrated(event: HistoryHydrated) -> str:
    """The end of a run's history fetch: its outcome, what it brought, why it stopped short."""
    size = f"{event.bytes_fetched / 1024 / 1024:.1f} MiB" if event.bytes_fetched else "0 bytes"
    done = f"{event.fetched} of {event.missing} past blobs fetched, {size}, {event.seconds:.1f}s"
    line = f"history {event.outcome}: {done}"
    return line + (f" ({event.note})" if event.note else "")


def doc_claims_rejudged(event: DocClaimsRejudged) -> str:
    """The second judgement of a run's doc claims: the counts before and after, or why nothing was revised."""
    if not event.revised:
        return f"not revised: {event.reason or 'the doc-claim findings are unchanged'}"
    changes = [
        f"{event.claims_before.get(status, 0)} -> {event.claims_after.get(status, 0)} {status}"
        for status in _CLAIM_STATUSES
        if event.claims_before.get(status, 0) != event.claims_after.get(status, 0)
    ]
    analysis = (event.analysis_event_id or "?")[:12]
    line = f"revised analysis {analysis}: " + (", ".join(changes) or "same counts by status, other evidence")
    return line + (f" ({history_caveat(event.history_note)})" if event.history_note else "")


def analysis_completed(event: AnalysisCompleted) -> str:
    """Model, sections and contradicted claims; a revision names the analysis it replaces."""
    contradicted = sum(1 for claim in event.doc_claims if claim.status == "contradicted")
    line = f"model={event.model}; {len(event.sections)} sections; {contradicted} contradicted doc claims"
    if event.provenance.revision_of is not None:
        line += f"; revises {event.provenance.revision_of[:12]} (doc claims judged again with history)"
    elif event.unchanged_since:
        line += f"; unchanged since {event.unchanged_since}"
    return line


def summarize(event: AnyEvent) -> str:  # noqa: PLR0911, PLR0912 — one short case per event type reads best
    """What happened, in a few words (every event type has its own line: tests/cli/test_describe.py)."""
    match event:
        case RepoUpdated():
            scope = f"{len(event.changed_paths)} changed paths" if event.changed_paths is not None else "full"
            sha = (event.head_sha or "latest")[:10]  # a push names its head; a CLI run takes the branch's latest
            return f"branch={event.repo.branch or 'default'} head={sha} {scope}{' force' if event.force else ''}"
        case FileRecencyComputed():
            detail = f"{event.files} files, {event.commits_read} commits, {event.seconds:.2f}s"
            return f"{event.status} ({event.mode}): " + (event.reason or detail)
        case ChunksIndexed():
            return chunks_indexed(event)
        case ChunksEmbedded():
            state = "complete" if event.complete else f"{event.points_missing} missing: {event.reason}"
            return (
                f"vectors for review search: {event.points_total - event.points_missing}/{event.points_total} "
                f"({state}); {event.points_embedded} written, {plural(event.embedding_calls, 'embedding call')}; "
                f"{event.duration_seconds:.1f}s"
            )
        case ChunksSelected():
            median = event.median_code[:10] if event.median_code else "unknown"  # the day: the time says nothing
            return f"{event.purpose}: {len(event.chunks)} of {event.counts.total_chunks} chunks, median {median}"
        case HistoryHydrated():
            return history_hydrated(event)
        case DocClaimsRejudged():
            return doc_claims_rejudged(event)
        case AnalysisCompleted():
            return analysis_completed(event)
        case SummaryCompleted():
            return f"model={event.model}; {event.purpose[:80]}"
        case ReviewRequested():
            return f"pr={event.pr_number} {event.title[:60]}"
        case ReviewCompleted():
            return f"model={event.model}; {len(event.findings)} findings; {len(event.context)} context chunks"
        case StageFailed():
            return f"{event.stage}: {event.reason}"
        case EventParked():
            where = f"seq {event.stream_sequence} after {event.deliveries} deliveries"
            return f"{event.consumer} parked {where}: {event.reason}"
    assert_never(event)
