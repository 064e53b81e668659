"""Old file contents for the doc-claim history look-up, fetched into the mirror beside or after the run.

The analyzer judges doc claims with the repository's history, read from the indexer's blob-less
mirror with no transport at all. So the indexer, which owns the mirror, its lock and the
credentials, fetches the source files' past blobs after its sync (`RepoMirror.hydrate_history`,
within `INDEX_HISTORY_FETCH_BYTES` and `INDEX_HISTORY_FETCH_SECONDS`). When does the run wait?

- A mirror whose history is hydrated up to an ancestor of the head needs only the history since
  (a few blobs): that fetch runs beside the indexing and the run's ChunksIndexed waits for it, so the
  analysis that follows finds the history complete. The run reads (and so fetches) every changed
  file of the head itself, so the fetch leaves the head tree's blobs until the run says its reads
  are done (`head_files_read`) and then fetches only those still missing: no blob is fetched twice.
- A mirror with no hydrated history (a first run, or one an earlier budget stopped) needs the whole
  history, which costs about as much CPU as the indexing itself: that fetch starts once the run is
  done and ChunksIndexed goes out without waiting for it (`start_after_run`). The analysis that
  follows judges the docs at the head, and its findings say the history was still being fetched
  (`history_blobs.UNDER_WAY_NOTE`) until the fetch ends and the claims are judged again. The run has read the head's
  files by then, so the fetch takes only what is still missing: nothing is fetched twice, and a file
  the run did not read leaves no hole. When it ends (complete, stopped by its budget, or failed), the
  run publishes HistoryHydrated (`announce_history`), and the analyzer judges that run's doc claims
  again (docs/analysis.md, "Revised with history").

A history too large for one run's budget is listed once: the next run lists only what came since
and takes up the blobs the last one left. A failed fetch costs the history, never the run. A fetch
left running when its process ends (kill -9 included) loses nothing the next run cannot fetch.
See docs/doc-claims.md ("Blob-less mirrors") and docs/indexing.md.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from sextant.contracts import Event, HistoryHydrated, HistoryOutcome, event_id_for, utc_now_iso
from sextant.gitsource.access import RepoSource
from sextant.gitsource.errors import GitSourceError
from sextant.gitsource.history_blobs import Hydration
from sextant.indexer.deps import IndexerDeps
from sextant.telemetry import tracer

logger = logging.getLogger(__name__)
_tracer = tracer(__name__)
HistoryListener = Callable[[HistoryHydrated], Awaitable[object]]
"""Where a run's HistoryHydrated goes once the fetch after it ends (the service publishes it on the bus)."""
_RUNNING: set[asyncio.Task[Hydration | None]] = set()
"""Fetches under way: held here so one whose run failed before waiting for it still runs to its end."""
_ANNOUNCING: set[asyncio.Task[None]] = set()
"""HistoryHydrated events waiting for their fetch, or being published."""


@dataclass(frozen=True)
class RunningHydration:
    """A fetch started by `start_hydration`."""

    task: asyncio.Task[Hydration | None]
    head_read: threading.Event = field(default_factory=threading.Event)
    """Set once the run has read the head's files it indexes: the fetch then takes the rest of the head."""


def start_hydration(deps: IndexerDeps, source: RepoSource, head_sha: str) -> RunningHydration | None:
    """Start fetching the history's blobs beside the run (None when the budget is 0: turned off).

    Args:
        deps: The indexer's dependencies (mirror cache, settings).
        source: The synced source.
        head_sha: The head the sync brought.

    Returns:
        The running fetch, to pass to `finish_hydration`.
    """
    budget = deps.settings.history_fetch_bytes
    if budget <= 0:
        return None
    head_read = threading.Event()
    task = asyncio.create_task(asyncio.to_thread(_hydrate, deps, source, head_sha, budget, head_read))
    _RUNNING.add(task)
    task.add_done_callback(_RUNNING.discard)
    return RunningHydration(task, head_read)


def start_after_run(deps: IndexerDeps, source: RepoSource, head_sha: str) -> RunningHydration | None:
    """Start fetching the history's blobs once the run is done, without the run waiting for it.

    The run has read the head's files, so the fetch takes whatever is still missing at once. The
    fetch is kept until it ends (`history_fetches_settled` waits for it); it takes the mirror's lock as
    a sync does, so it and the next run's sync of the repository take turns.

    Args:
        deps: The indexer's dependencies (mirror cache, settings).
        source: The synced source.
        head_sha: The head the run indexed.

    Returns:
        The running fetch (None when the budget is 0: turned off).
    """
    if deps.settings.history_fetch_bytes <= 0:
        return None
    try:
        # Before ChunksIndexed goes out, so the analysis that follows says why it finds no history.
        deps.mirrors.note_history_under_way(source, head_sha)
    except OSError as error:
        logger.warning("history blobs for doc claims: the mirror's notes could not be written: %s", error)
    running = start_hydration(deps, source, head_sha)
    head_files_read(running)
    return running


def history_hydrated(run: Event, head_sha: str, hydration: Hydration | None) -> HistoryHydrated:
    """The event saying how the fetch after a run ended.

    Args:
        run: An event of the run (its repository and run id are taken).
        head_sha: The head the run indexed.
        hydration: What the fetch did (None: it failed, and the failure was logged).

    Returns:
        A HistoryHydrated with a deterministic id (one per run and head: a re-run fetch is stored once).
    """
    outcome: HistoryOutcome
    note: str | None
    if hydration is None:
        outcome, note = "failed", "the history fetch failed (see the indexer's log)"
    elif hydration.complete:
        outcome, note = "complete", None
    else:
        outcome, note = "incomplete", hydration.note
    return HistoryHydrated(
        event_id=event_id_for(HistoryHydrated, run.run_id, head_sha),
        run_id=run.run_id,
        occurred_at=utc_now_iso(),
        repo=run.repo,
        head_sha=head_sha,
        outcome=outcome,
        note=note,
        missing=hydration.missing if hydration else 0,
        fetched=hydration.fetched if hydration else 0,
        bytes_fetched=hydration.bytes_fetched if hydration else 0,
        seconds=round(hydration.seconds, 3) if hydration else 0.0,
    )


def announce_history(running: RunningHydration, run: Event, head_sha: str, listener: HistoryListener) -> None:
    """Once the fetch after a run ends, hand its HistoryHydrated to ``listener`` (kept like the fetch).

    A listener that fails (the bus is down) is logged: the next run's analysis reads the history anyway.

    Args:
        running: The fetch started by `start_after_run`.
        run: An event of the run.
        head_sha: The head the run indexed.
        listener: Publishes the event.
    """

    async def when_done() -> None:
        hydration = await running.task
        event = history_hydrated(run, head_sha, hydration)
        with _tracer.start_as_current_span(
            "indexer.history_hydrated",
            attributes={"sextant.outcome": event.outcome, "sextant.blobs_fetched": event.fetched},
        ):
            try:
                await listener(event)
            except Exception as error:  # the fetch is done either way; only the news is lost
                logger.warning("HistoryHydrated of run %s not published: %s", run.run_id, error)

    task: asyncio.Task[None] = asyncio.create_task(when_done())
    _ANNOUNCING.add(task)
    task.add_done_callback(_ANNOUNCING.discard)


async def history_fetches_settled() -> None:
    """Wait until every history fetch this process started has ended and been announced (none raises)."""
    loop = asyncio.get_running_loop()
    while running := [task for task in (*_RUNNING, *_ANNOUNCING) if task.get_loop() is loop]:
        await asyncio.gather(*running)


def head_files_read(running: RunningHydration | None) -> None:
    """Tell the fetch that the run has read (fetched) the head's files it needs; calling it again is harmless."""
    if running is not None:
        running.head_read.set()


async def finish_hydration(running: RunningHydration | None) -> None:
    """Wait for the fetch started by `start_hydration` (it never raises: a failure is logged)."""
    if running is not None:
        head_files_read(running)
        await running.task


def _hydrate(
    deps: IndexerDeps, source: RepoSource, head_sha: str, budget: int, head_read: threading.Event
) -> Hydration | None:
    try:
        hydration = deps.mirrors.hydrate_history(
            source,
            head_sha,
            max_bytes=budget,
            max_seconds=deps.settings.history_fetch_seconds,
            head_read=head_read,
        )
    except GitSourceError as error:  # scrubbed of secrets by gitsource
        logger.warning("history blobs not fetched for doc claims: %s", error)
        return None
    except OSError as error:  # the mirror's own files (outcome, pending list): a full disk, a read-only folder
        logger.warning("history blobs for doc claims: the mirror's notes could not be written: %s", error)
        return None
    if hydration is not None and (hydration.fetched or hydration.note):
        logger.info(
            "history blobs for doc claims: %d of %d fetched (%d left by the last run), %d bytes, %d requests, %.1f s%s",
            hydration.fetched,
            hydration.missing,
            hydration.carried,
            hydration.bytes_fetched,
            hydration.fetches,
            hydration.seconds,
            f" ({hydration.note})" if hydration.note else "",
        )
    return hydration
