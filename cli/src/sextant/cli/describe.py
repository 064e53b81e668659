"""One readable line per event, for `sextant events` and progress output."""

from __future__ import annotations

from sextant.contracts import (
    AnalysisCompleted,
    AnyEvent,
    ChunksEmbedded,
    ChunksIndexed,
    ChunksSelected,
    EventParked,
    FileRecencyComputed,
    RepoUpdated,
    ReviewCompleted,
    ReviewRequested,
    StageFailed,
    SummaryCompleted,
    event_name,
)


def skipped_files(event: ChunksIndexed) -> str:
    """``3 binary, 120 vendored or generated``: the files left out per reason (empty when none)."""
    return ", ".join(f"{group.count} {group.reason}" for group in event.skipped)


def skipped_counts(event: ChunksIndexed) -> str:
    """`` (skipped: 3 binary, 120 vendored or generated)``, or nothing when no file was skipped."""
    skipped = skipped_files(event)
    return f" (skipped: {skipped})" if skipped else ""


def summarize(event: AnyEvent) -> str:  # noqa: PLR0911 — one short case per event type reads best
    """What happened, in a few words."""
    match event:
        case RepoUpdated():
            scope = f"{len(event.changed_paths)} changed paths" if event.changed_paths is not None else "full"
            sha = (event.head_sha or "?")[:10]
            return f"branch={event.repo.branch or 'default'} head={sha} {scope}{' force' if event.force else ''}"
        case FileRecencyComputed():
            detail = f"{event.files} files, {event.commits_read} commits, {event.seconds:.2f}s"
            return f"{event.status} ({event.mode}): " + (event.reason or detail)
        case ChunksIndexed():
            return (
                f"{event.files_seen} files: {event.files_added} added, {event.files_changed} changed, "
                f"{event.files_unchanged} unchanged ({event.files_restamped} re-dated), {event.files_deleted} deleted, "
                f"{len(event.failed_files)} failed{skipped_counts(event)}; {event.chunks_upserted} chunks written, "
                f"{event.chunks_deleted} removed; {event.embedding_calls} embedding calls; "
                f"recency {event.recency_status}; {event.duration_seconds:.1f}s"
            )
        case ChunksEmbedded():
            state = "complete" if event.complete else f"{event.points_missing} missing: {event.reason}"
            return (
                f"vectors for review search: {event.points_total - event.points_missing}/{event.points_total} "
                f"({state}); {event.points_embedded} written, {event.embedding_calls} embedding calls; "
                f"{event.duration_seconds:.1f}s"
            )
        case ChunksSelected():
            median = event.median_code or "unknown"
            return f"{event.purpose}: {len(event.chunks)} of {event.counts.total_chunks} chunks, median {median}"
        case AnalysisCompleted():
            contradicted = sum(1 for claim in event.doc_claims if claim.status == "contradicted")
            return f"model={event.model}; {len(event.sections)} sections; {contradicted} contradicted doc claims"
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
    return event_name(type(event))
