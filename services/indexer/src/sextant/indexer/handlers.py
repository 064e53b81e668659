"""Turn a FileRecencyComputed into ChunksIndexed, or a StageFailed for an expected failure."""

from __future__ import annotations

import logging

from sextant.contracts import (
    ChunksIndexed,
    FileRecencyComputed,
    StageFailed,
)
from sextant.contracts import stage_failed as contract_stage_failed
from sextant.gitsource.errors import GitSourceError, GitTimeoutError
from sextant.indexer.deps import IndexerDeps
from sextant.indexer.history_hydration import HistoryListener
from sextant.indexer.pipeline import StoreUnavailableError, index_repository
from sextant.indexer.progress import ProgressCallback

logger = logging.getLogger(__name__)

STAGE = "indexer"


def stage_failed(event: FileRecencyComputed, reason: str) -> StageFailed:
    """The event a user sees when this run of the indexer cannot finish.

    Args:
        event: The event being handled.
        reason: What went wrong (safe to show: gitsource errors are scrubbed of credentials).

    Returns:
        A StageFailed with a deterministic id.
    """
    return contract_stage_failed(event, STAGE, reason)


async def on_file_recency_computed(
    event: FileRecencyComputed,
    deps: IndexerDeps,
    progress: ProgressCallback | None = None,
    on_history: HistoryListener | None = None,
) -> list[ChunksIndexed | StageFailed]:
    """Index the repository the recency event's request names, stamping the event's dates.

    Expected failures (unknown repository, missing branch, refused source, store unavailable) become
    a StageFailed; a git timeout or anything unexpected is raised, so the bus retries the delivery.

    Args:
        event: The recency scanner's output; ``event.request`` is the original RepoUpdated.
        deps: Indexer dependencies.
        progress: Optional progress callback.
        on_history: Given the run's HistoryHydrated once a fetch of the whole history that follows the
            run has ended (a blob-less mirror's first run).

    Returns:
        Exactly one ChunksIndexed or StageFailed.
    """
    try:
        indexed = await index_repository(event.request, event, deps, progress, on_history)
    except GitTimeoutError:
        raise
    except (GitSourceError, StoreUnavailableError) as error:
        reason = f"{type(error).__name__}: {error}"
        logger.warning("indexing %s failed: %s", event.repo.repo_key, reason)
        return [stage_failed(event, reason)]
    logger.info(
        "indexed %s at %s: %d changed, %d added, %d deleted, %d failed, %d chunks in %.1f s",
        event.repo.repo_key,
        (indexed.head_sha or "")[:12],
        indexed.files_changed,
        indexed.files_added,
        indexed.files_deleted,
        len(indexed.failed_files),
        indexed.chunks_upserted,
        indexed.duration_seconds,
    )
    return [indexed]
