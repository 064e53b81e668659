"""Turn a RepoUpdated into a FileRecencyComputed: computed, skipped or failed — never blocking the run."""

from __future__ import annotations

import asyncio
import logging
from typing import Literal

import msgspec

from sextant.contracts import (
    FileRecencyComputed,
    RecencyStatus,
    RepoUpdated,
    event_id_for,
    url_without_credentials,
    utc_now_iso,
)
from sextant.gitsource.recency import incremental_recency, scan_recency
from sextant.gitsource.repo_reference import source_for_repo
from sextant.recency_scanner.config import RecencySettings

logger = logging.getLogger(__name__)


def _recency_event(
    event: RepoUpdated,
    status: RecencyStatus,
    *,
    mode: Literal["full", "incremental"] = "full",
    dates: dict[str, str | None] | None = None,
    reason: str | None = None,
    commits_read: int = 0,
    seconds: float = 0.0,
) -> FileRecencyComputed:
    # A publisher may have put credentials in the URL (refused below): never repeat them downstream.
    repo = msgspec.structs.replace(event.repo, url=url_without_credentials(event.repo.url))
    return FileRecencyComputed(
        event_id=event_id_for(FileRecencyComputed, event.run_id, event.event_id),
        run_id=event.run_id,
        occurred_at=utc_now_iso(),
        repo=repo,
        request=msgspec.structs.replace(event, repo=repo),
        status=status,
        mode=mode,
        dates=dates,
        reason=reason,
        commits_read=commits_read,
        files=len(dates or {}),
        seconds=seconds,
    )


async def on_repo_updated(event: RepoUpdated, settings: RecencySettings) -> list[FileRecencyComputed]:
    """Compute path → last-commit date for the event's branch, or say why not.

    Args:
        event: The update to scan.
        settings: Feature flag, window, timeout and provider tokens.

    Returns:
        Exactly one FileRecencyComputed; a failure is reported in it, never raised.
    """
    if not settings.enabled:
        return [_recency_event(event, "skipped", reason="INDEX_FILE_RECENCY is off")]
    if event.changed_paths is not None:
        dates = incremental_recency(event.changed_paths, event.head_commit_date)
        return [_recency_event(event, "computed", mode="incremental", dates=dates)]
    try:
        source = source_for_repo(
            event.repo, token=settings.tokens(event.repo.provider), allow_local=settings.allow_local_repos
        )
        scan = await asyncio.to_thread(
            scan_recency, source, window=settings.window, timeout=settings.timeout_seconds, limits=settings.tree_limits
        )
    except Exception as error:  # any scan failure (git, network, parse) must not block indexing
        reason = f"{type(error).__name__}: {error}"
        logger.warning("recency scan of %s failed, indexing goes on without dates: %s", event.repo.repo_key, reason)
        return [_recency_event(event, "failed", reason=reason)]
    return [_recency_event(event, "computed", dates=scan.dates, commits_read=scan.commits_read, seconds=scan.seconds)]
