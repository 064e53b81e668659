"""One index run: sync the mirror, compare the tree with the store, index what changed, clean up."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pickle
import time
from collections.abc import AsyncGenerator, AsyncIterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import msgspec

from sextant.chunkstore import ChunkPayload, ChunkPoint, FileEntry, SparseVector
from sextant.contracts import (
    ChunksIndexed,
    FailedFile,
    FileRecencyComputed,
    RepoUpdated,
    event_id_for,
    utc_now_iso,
)
from sextant.gitsource.access import RepoSource
from sextant.gitsource.mirror import MirrorState
from sextant.gitsource.paths import text_path
from sextant.gitsource.repo_reference import source_for_repo
from sextant.indexer.chunk_points import FileVersion, chunk_payload, chunk_point_ids
from sextant.indexer.deps import IndexerDeps
from sextant.indexer.discovery import SkipLog, discover_files
from sextant.indexer.earlier_attempts import written_by_earlier_attempts
from sextant.indexer.file_parsing import NotParsed, parse_file
from sextant.indexer.history_hydration import (
    HistoryListener,
    RunningHydration,
    announce_history,
    finish_hydration,
    head_files_read,
    start_after_run,
    start_hydration,
)
from sextant.indexer.parse_process import BlobToParse, ParsedChunks, ParseReply, ParseRequest
from sextant.indexer.progress import IndexProgress, Phase, ProgressCallback
from sextant.indexer.recency_stamp import RecencyStamp
from sextant.indexer.restamp import restamps_for_unchanged
from sextant.indexer.run_plan import FileToIndex, RunPlan, plan_run
from sextant.indexer.sparse_encoding import EncodedFile, ParsedFile, encode_files
from sextant.indexer.symbol_dates import HistoryLineDates, SymbolDate, chunk_dates, earlier_dates, history_line_dates
from sextant.parsing import PARSED_LANGUAGES, language_for_path
from sextant.telemetry import tracer

logger = logging.getLogger(__name__)
_tracer = tracer(__name__)

READ_SLICE_FILES = 2000
"""Most changed files whose blobs are fetched and read in one batch; bounds memory on huge first runs."""
FIRST_READ_FILES = 64
"""Files of the first read: parsing starts once they are read, while the next (twice as many) are read."""
PARSE_SLICE_FILES = 32
"""Files parsed per worker-thread hop, so embedding can start before a whole slice is parsed."""
QUEUED_GROUPS = 2
"""Parsed groups waiting for the sparse encoder and the store: parsing stays ahead without holding the
whole repo."""
PARSE_PROCESS_AHEAD = 8
"""Slices sent to the parse process and not yet used: it parses on while the run writes, even when one
slice's answer fills more groups than the queue holds."""
DATING_QUEUED_GROUPS = 64
"""The same while the symbol-date pass runs (about 16k chunks at the default group size): the pass can
stop only once every file has told it its chunks, so parsing runs further ahead of the writes then."""


class StoreUnavailableError(Exception):
    """The chunk store did not answer the run's first read."""


@dataclass
class RunTally:
    """Counts of one run, turned into the ChunksIndexed event at the end."""

    files_changed: int = 0
    files_added: int = 0
    files_deleted: int = 0
    files_done: int = 0
    chunks_upserted: int = 0
    chunks_deleted: int = 0
    files_restamped: int = 0
    """Unchanged files whose stored last_modified_at was brought in line with the scan (not embedded)."""
    points_restamped: int = 0
    files_by_earlier_attempts: int = 0
    """Files the plan found unchanged because an earlier attempt of this run wrote them."""
    files_blank: int = 0
    """Files read and found to hold nothing to index (whitespace only) with no points stored: unchanged,
    as an empty file the plan knows by its blob id, so a re-run does not count them as added again."""
    failed: list[FailedFile] = field(default_factory=list)
    skipped: SkipLog = field(default_factory=SkipLog)
    """Files left out by discovery and by the content checks, with their reasons."""

    def indexed(self, file: FileToIndex) -> None:
        """Count a file whose new content is now in the store."""
        if file.is_new:
            self.files_added += 1
        else:
            self.files_changed += 1


@dataclass(frozen=True)
class _Run:
    """What every step of one run shares."""

    deps: IndexerDeps
    repo_key: str
    run_id: str
    source: RepoSource
    stamp: RecencyStamp
    indexed_at: str
    plan: RunPlan
    tally: RunTally
    progress: ProgressCallback | None
    head_sha: str = ""
    blame: bool = False
    """Symbol dates from ``git blame``: the history is on disk (a repository read in place)."""
    carried: dict[str, dict[str, SymbolDate]] = field(default_factory=dict)
    """Changed files' earlier symbol dates by text key, where blame is not used."""
    hydrating: RunningHydration | None = None
    """The history fetch beside the run, told when the run's own blob reads are done."""
    fetch_beside: bool = False
    """The run fetches past blobs beside its indexing (a blob-less mirror whose history was hydrated up to
    an ancestor of the head, and a budget above 0); a first run's fetch follows the run instead."""

    def report(self, phase: Phase) -> None:
        if self.progress is not None:
            self.progress(
                IndexProgress(
                    phase=phase,
                    files_total=len(self.plan.to_index),
                    files_done=self.tally.files_done,
                    chunks_done=self.tally.chunks_upserted,
                    files_unchanged=self.plan.unchanged,
                    files_restamped=self.tally.files_restamped,
                )
            )


def repo_source(request: RepoUpdated, deps: IndexerDeps) -> RepoSource:
    """The git source of a request, with the provider's token from the token lookup.

    Args:
        request: The update being indexed.
        deps: Indexer dependencies (their settings hold the git token lookup).

    Returns:
        The source to sync.
    """
    settings = deps.settings
    token = settings.tokens(request.repo.provider)
    return source_for_repo(request.repo, token=token, allow_local=settings.allow_local_repos)


async def index_repository(
    request: RepoUpdated,
    recency: FileRecencyComputed | None,
    deps: IndexerDeps,
    progress: ProgressCallback | None = None,
    on_history: HistoryListener | None = None,
) -> ChunksIndexed:
    """Bring the store's payloads and sparse vectors of one repository branch up to date with its head.

    Unchanged files (same blob SHA as stored, every point of the version present) cost nothing;
    changed files get their new points written before their old ones are deleted; paths that left the
    tree lose their points. An incremental request (``changed_paths`` set) looks only at its paths.
    Points are written without their dense vector: the dense phase (``dense_stage``) adds it after
    ChunksIndexed is published, so nothing on the analysis path waits on the embedding model.
    A retried delivery of the same run counts what its earlier attempts wrote (see
    ``earlier_attempts``).
    Unchanged files whose stored ``last_modified_at`` differs from a computed scan's are re-stamped in
    place, payload only (see ``restamp``); a skipped or failed scan leaves their stamps alone.

    Args:
        request: The RepoUpdated being answered.
        recency: The run's recency scan (None: no scan, ``last_modified_at`` left out).
        deps: Store, embedders, mirror cache and settings.
        progress: Optional callback for files and chunks done.
        on_history: Given the run's HistoryHydrated when a fetch of the whole history follows the run
            (the event's ``history_fetch_follows`` says so) and has ended.

    Returns:
        The ChunksIndexed event of the run.

    Raises:
        GitSourceError: The repository or branch could not be read.
        StoreUnavailableError: The chunk store did not answer.
    """
    async with deps.lock_for(request.repo.repo_key):
        return await _index(request, recency, deps, progress, on_history)


async def _index(
    request: RepoUpdated,
    recency: FileRecencyComputed | None,
    deps: IndexerDeps,
    progress: ProgressCallback | None,
    on_history: HistoryListener | None,
) -> ChunksIndexed:
    started = time.perf_counter()
    calls_before = deps.embedder.calls
    source = repo_source(request, deps)
    if progress is not None:
        progress(IndexProgress(phase="syncing"))
    with _tracer.start_as_current_span("indexer.sync"):
        state: MirrorState = await asyncio.to_thread(deps.mirrors.sync, source)
    # Past blobs for doc claims: beside the run when only the history since a hydrated head is missing,
    # after it (not waited for) when the whole history is (see history_hydration).
    whole_history = (
        deps.settings.history_fetch_bytes > 0
        and not state.in_place
        and not await asyncio.to_thread(deps.mirrors.extends_hydrated_history, source, state.head_sha)
    )
    hydrating = None if whole_history else start_hydration(deps, source, state.head_sha)
    try:
        run = await _index_synced(
            request, recency, deps, progress, source=source, state=state, hydrating=hydrating, fetch_after=whole_history
        )
    finally:
        head_files_read(hydrating)  # also when the run failed: the fetch must not wait for reads that never come
    await finish_hydration(hydrating)
    run.report("done")
    after = start_after_run(deps, source, state.head_sha) if whole_history else None
    if after is not None and on_history is not None:
        announce_history(after, request, state.head_sha, on_history)
    indexed = _chunks_indexed(
        request, recency=recency, run=run, state=state, deps=deps, calls_before=calls_before, started=started
    )
    return msgspec.structs.replace(indexed, history_fetch_follows=after is not None and on_history is not None)


async def _index_synced(
    request: RepoUpdated,
    recency: FileRecencyComputed | None,
    deps: IndexerDeps,
    progress: ProgressCallback | None,
    *,
    source: RepoSource,
    state: MirrorState,
    hydrating: RunningHydration | None,
    fetch_after: bool,
) -> _Run:
    repo_key = request.repo.repo_key
    with _tracer.start_as_current_span("indexer.discover") as span:
        rules = deps.settings.rules
        listing = deps.mirrors.iter_tree(source, state.head_sha, rules.tree_limits)
        found = await asyncio.to_thread(discover_files, listing, rules)
        tree = found.tree
        try:
            stored = await asyncio.to_thread(deps.store.file_index, repo_key)
        except Exception as error:  # the first store call doubles as the availability check
            raise StoreUnavailableError(f"chunk store unavailable: {type(error).__name__}: {error}") from error
        scope = None
        if request.changed_paths is not None:
            # The push's paths in the tree's text form, so an escaped name matches its tree entry.
            pushed = [*request.changed_paths, *(request.removed_paths or ())]
            scope = frozenset(text_path(path) for path in pushed)
        plan = plan_run(tree, stored, force=request.force, scope=scope, run_id=request.run_id)
        span.set_attributes(
            {
                "sextant.head_sha": state.head_sha,
                "sextant.files_in_tree": found.entries,
                "sextant.files_seen": len(tree),
                "sextant.files_to_index": len(plan.to_index),
                "sextant.files_stale": len(plan.stale_paths),
            }
        )
    run = _Run(
        deps=deps,
        repo_key=repo_key,
        run_id=request.run_id,
        source=source,
        stamp=RecencyStamp(recency),
        indexed_at=utc_now_iso(),
        plan=plan,
        tally=RunTally(skipped=found.skipped),
        progress=progress,
        head_sha=state.head_sha,
        blame=state.in_place and deps.settings.symbol_blame,
        hydrating=hydrating,
        fetch_beside=hydrating is not None and not state.in_place,
    )
    run.report("planning")
    await _load_carried_dates(run)
    _count_earlier_attempts(run, stored)
    await _restamp_unchanged(run, stored)
    await _delete_emptied(run)
    await _index_changed(run)
    run.report("cleaning")
    if plan.stale_paths:
        with _tracer.start_as_current_span("indexer.cleanup", attributes={"sextant.files": len(plan.stale_paths)}):
            deleted = await asyncio.to_thread(deps.store.delete_paths, repo_key, plan.stale_paths)
        run.tally.chunks_deleted += deleted
        run.tally.files_deleted += len(plan.stale_paths)
    return run


async def _load_carried_dates(run: _Run) -> None:
    """Without history on disk, changed files keep the dates of their unchanged chunks (one scroll)."""
    changed = {file.path for file in run.plan.to_index if file.old_point_ids}
    if run.blame or not changed:
        return

    def read() -> dict[str, dict[str, SymbolDate]]:
        by_path: dict[str, list[ChunkPayload]] = {}
        for payload in run.deps.store.scroll_payloads(run.repo_key):
            if payload.path in changed:
                by_path.setdefault(payload.path, []).append(payload)
        return {path: earlier_dates(payloads) for path, payloads in by_path.items()}

    run.carried.update(await asyncio.to_thread(read))


def _count_earlier_attempts(run: _Run, stored: Mapping[str, FileEntry]) -> None:
    earlier = written_by_earlier_attempts(run.plan.unchanged_paths, stored, run.run_id)
    run.tally.files_added += earlier.files_added
    run.tally.files_changed += earlier.files_changed
    run.tally.chunks_upserted += earlier.points
    run.tally.files_by_earlier_attempts += earlier.files_added + earlier.files_changed


async def _restamp_unchanged(run: _Run, stored: Mapping[str, FileEntry]) -> None:
    """Give unchanged files the scan's last_modified_at in one payload-only write (no fetch, no embedding)."""
    stamps = restamps_for_unchanged(run.plan.unchanged_paths, stored, run.stamp)
    if not stamps:
        return
    with _tracer.start_as_current_span("indexer.restamp", attributes={"sextant.files": len(stamps)}) as span:
        points = await asyncio.to_thread(run.deps.store.set_last_modified, run.repo_key, stamps)
        span.set_attribute("sextant.points", points)
    run.tally.files_restamped += len(stamps)
    run.tally.points_restamped += points
    logger.info(
        "re-stamped last_modified_at of %d unchanged files (%d points) in %s", len(stamps), points, run.repo_key
    )


async def _delete_emptied(run: _Run) -> None:
    for ids in run.plan.emptied.values():
        await asyncio.to_thread(run.deps.store.delete_points, ids)
        run.tally.chunks_deleted += len(ids)
        run.tally.files_changed += 1


async def _index_changed(run: _Run) -> None:
    if not run.plan.to_index:
        return
    run.report("indexing")
    # The line dates of the files that hold definitions (those a grammar parses; the others keep the
    # file date) come from one pass over the history, read while the files are parsed and encoded;
    # each parsed file tells it which lines its chunks span, so it can stop once every chunk is dated.
    dating = (
        history_line_dates(
            run.deps.mirrors,
            run.source,
            run.head_sha,
            [file.path for file in run.plan.to_index if language_for_path(file.path) in PARSED_LANGUAGES],
        )
        if run.blame
        else None
    )
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="symbol-dates")
    if dating is not None:
        pool.submit(dating.read)
    queue: asyncio.Queue[_Group | None] = asyncio.Queue(
        maxsize=QUEUED_GROUPS if dating is None else DATING_QUEUED_GROUPS
    )

    async def produce() -> None:
        try:
            async for group in _parsed_groups(run):
                if dating is not None:
                    _tell_spans(dating, group.files)
                await queue.put(group)
        except Exception:
            await queue.put(None)  # wake the consumer; the error is raised below
            raise
        finally:
            if dating is not None:
                dating.wanted_all()
        await queue.put(None)

    async def consume() -> None:
        while (group := await queue.get()) is not None:
            encoded = await _encoded(group, run)
            # Dated after the sparse encoding, so the history pass runs while the first groups encode.
            encoded = await asyncio.to_thread(_with_symbol_dates, encoded, run, dating)
            with _tracer.start_as_current_span("indexer.upsert") as span:
                upserted, replaced = await asyncio.to_thread(_write, run, encoded)
                span.set_attributes({"sextant.points_written": upserted, "sextant.points_replaced": replaced})
            run.tally.chunks_upserted += upserted
            run.tally.chunks_deleted += replaced
            for item in encoded:
                run.tally.indexed(item.parsed.file)
            run.tally.files_done += len(group.files)
            run.report("indexing")

    producer = asyncio.create_task(produce())
    try:
        await consume()
    finally:
        if not producer.done():
            producer.cancel()
        await asyncio.gather(producer, return_exceptions=True)
        if dating is not None:
            dating.stop()
        # The history pass ends with the run (stop() makes it close its git log at the next piece), so
        # no git process and no log line of this run outlives it.
        await asyncio.to_thread(pool.shutdown, wait=True)
    # A failure while reading or parsing must surface, not end the run as if it were complete.
    error = None if producer.cancelled() else producer.exception()
    if error is not None:
        raise error


@dataclass(frozen=True)
class _Unindexed:
    """A file that will not get new points this run, and whether its old points go."""

    file: FileToIndex
    reason: str | None
    """For failed_files when the file failed (unreadable, parse error); None for a blank file (nothing to
    index). Not reported when ``skip_reason`` is set: a content skip goes to ChunksIndexed.skipped alone."""
    drop_old_points: bool
    skip_reason: str | None = None
    """For ChunksIndexed.skipped when the content was not indexable (binary, too large, not UTF-8)."""


def _dated_by_history(parsed: ParsedFile) -> bool:
    """Whether a file's chunks take their dates from the history pass (it holds code)."""
    return any(chunk.kind == "code" for chunk in parsed.chunks)


def _tell_spans(dating: HistoryLineDates, group: Sequence[ParsedFile]) -> None:
    for parsed in group:
        if _dated_by_history(parsed):
            dating.want(parsed.file.path, [(chunk.start_line, chunk.end_line) for chunk in parsed.chunks])


async def _encoded(group: _Group, run: _Run) -> list[EncodedFile]:
    if group.sparse is not None:  # encoded by the parse process
        return [EncodedFile(parsed, sparse) for parsed, sparse in zip(group.files, group.sparse, strict=True)]
    chunk_count = sum(len(item.chunks) for item in group.files)
    with _tracer.start_as_current_span("indexer.sparse") as span:
        encoded = await encode_files(group.files, run.deps.sparse)
        span.set_attributes({"sextant.files": len(group.files), "sextant.chunks": chunk_count})
    return encoded


@dataclass(frozen=True)
class _Group:
    """Parsed files written together, with their sparse vectors when the parse process encoded them."""

    files: list[ParsedFile]
    sparse: list[list[SparseVector]] | None = None


async def _parsed_groups(run: _Run) -> AsyncIterator[_Group]:
    """Read changed blobs slice by slice, parse them, and yield groups of about ``group_chunks``."""
    group: list[ParsedFile] = []
    sparse: list[list[SparseVector]] = []
    group_chunks = 0
    # Beside the history fetch, whose git processes want the second core too, the worker measured no
    # better; without it (a repository read in place, a first run, whose fetch follows it) it takes the
    # parsing off the writes' wall time for about the same CPU.
    in_process = not run.deps.settings.parses_in_worker(fetching_history=run.fetch_beside)
    outcomes_by_slice = _parsed_slices(run) if in_process else _encoded_slices(run)
    async with contextlib.aclosing(outcomes_by_slice):  # a run cut short drops the answers still to come
        async for outcomes in outcomes_by_slice:
            for outcome in outcomes:
                if isinstance(outcome, _Unindexed):
                    await _settle(run, outcome)
                    continue
                if isinstance(outcome, EncodedFile):
                    group.append(outcome.parsed)
                    sparse.append(outcome.sparse)
                else:
                    group.append(outcome)
                group_chunks += len(group[-1].chunks)
                if group_chunks >= run.deps.settings.group_chunks:
                    yield _Group(group, None if in_process else sparse)
                    group, sparse, group_chunks = [], [], 0
    if group:
        yield _Group(group, None if in_process else sparse)


def read_slices(count: int) -> list[tuple[int, int]]:
    """The (start, end) of each read slice of ``count`` changed files: ``FIRST_READ_FILES``, then each
    twice the last, up to ``READ_SLICE_FILES``.

    The first slice is small so that parsing starts at once; each next one is read while the one before
    is parsed (a read is mostly git's work, in its own processes), and doubling keeps the reads few
    (each may be one fetch on a blob-less mirror: celery's 775 files in 4 reads, 0.53 -> 0.57 s CPU).
    """
    bounds: list[tuple[int, int]] = []
    start, size = 0, FIRST_READ_FILES
    while start < count:
        bounds.append((start, min(count, start + size)))
        start, size = start + size, min(READ_SLICE_FILES, size * 2)
    return bounds


async def _read_ahead(run: _Run) -> AsyncGenerator[tuple[Sequence[FileToIndex], dict[str, bytes | None]], None]:
    """Each read slice's files and blobs, in order, the next slice read while this one is used."""
    files = run.plan.to_index

    def read(bounds: tuple[int, int]) -> dict[str, bytes | None]:
        start, end = bounds
        with _tracer.start_as_current_span("indexer.fetch", attributes={"sextant.files": end - start}):
            return run.deps.mirrors.read_blobs(
                run.source, [file.blob_sha for file in files[start:end]], run.deps.settings.rules.max_file_bytes
            )

    slices = read_slices(len(files))
    reading: asyncio.Task[dict[str, bytes | None]] | None = None
    try:
        for number, (start, end) in enumerate(slices):
            blobs = await (reading if reading is not None else asyncio.to_thread(read, (start, end)))
            reading = None
            if number + 1 < len(slices):
                reading = asyncio.create_task(asyncio.to_thread(read, slices[number + 1]))
            else:
                # Every changed file is read: the history fetch may take the rest of the head while this
                # slice is parsed, encoded and written, not after.
                head_files_read(run.hydrating)
            yield files[start:end], blobs
            del blobs
    finally:
        if reading is not None:  # a run cut short: the read under way ends (no git process outlives the run)
            await asyncio.gather(reading, return_exceptions=True)  # and its blobs are dropped


async def _parsed_slices(run: _Run) -> AsyncGenerator[Sequence[ParsedFile | EncodedFile | _Unindexed], None]:
    """Parse in a worker thread of this process, ``PARSE_SLICE_FILES`` at a time (encoded later)."""
    reads = _read_ahead(run)
    async with contextlib.aclosing(reads):
        async for files, blobs in reads:
            for parse_start in range(0, len(files), PARSE_SLICE_FILES):
                parse_slice = files[parse_start : parse_start + PARSE_SLICE_FILES]
                with _tracer.start_as_current_span("indexer.parse", attributes={"sextant.files": len(parse_slice)}):
                    outcomes = await asyncio.to_thread(_parse_files, parse_slice, blobs, run)
                yield outcomes


async def _encoded_slices(run: _Run) -> AsyncGenerator[Sequence[ParsedFile | EncodedFile | _Unindexed], None]:
    """Parse and encode in the parse process: requests go out as the blobs are read, up to
    ``PARSE_PROCESS_AHEAD`` answers ahead of the ones used, so the worker parses on while the run writes."""
    worker = run.deps.parse_process
    encoder = pickle.dumps(run.deps.sparse)
    max_file_bytes = run.deps.settings.rules.max_file_bytes
    sent: asyncio.Queue[tuple[Sequence[FileToIndex], asyncio.Future[ParseReply]] | None] = asyncio.Queue()
    ahead = asyncio.Semaphore(PARSE_PROCESS_AHEAD)
    waiting: list[asyncio.Future[ParseReply]] = []

    async def send() -> None:
        try:
            reads = _read_ahead(run)
            async with contextlib.aclosing(reads):
                async for files, blobs in reads:
                    for parse_start in range(0, len(files), PARSE_SLICE_FILES):
                        parse_slice = files[parse_start : parse_start + PARSE_SLICE_FILES]
                        request = ParseRequest(
                            files=[BlobToParse(file.path, blobs.get(file.blob_sha)) for file in parse_slice],
                            max_file_bytes=max_file_bytes,
                            max_chars=run.deps.embedder.max_chars,
                            encoder=encoder,
                        )
                        await ahead.acquire()
                        answer = asyncio.wrap_future(await asyncio.to_thread(worker.submit, request))
                        waiting.append(answer)
                        sent.put_nowait((parse_slice, answer))
        finally:
            sent.put_nowait(None)  # the answers' side stops there, and raises what failed here

    sender = asyncio.create_task(send())
    try:
        while (item := await sent.get()) is not None:
            sent_slice, reply = item
            answer = await reply
            _worker_spans(answer, len(sent_slice))
            outcomes = _from_reply(sent_slice, answer)
            waiting.remove(reply)
            ahead.release()
            yield outcomes
        await sender  # raises what failed the reads or the requests
    finally:
        if not sender.done():
            sender.cancel()
        await asyncio.gather(sender, return_exceptions=True)
        for reply in waiting:  # a failed or cancelled run: the answers still to come are dropped
            reply.cancel()


def _worker_spans(reply: ParseReply, files: int) -> None:
    """The parse process's parse and encode of one request as spans of the run's trace, at the times the
    worker measured (it has no tracer of its own): an operator sees the same stages either way."""
    for name, (start, end) in (("indexer.parse", reply.parse_ns), ("indexer.sparse", reply.sparse_ns)):
        if end:
            span = _tracer.start_span(
                name, start_time=start, attributes={"sextant.files": files, "sextant.parse_process": True}
            )
            span.end(end_time=end)


def _from_reply(files: Sequence[FileToIndex], reply: ParseReply) -> list[EncodedFile | _Unindexed]:
    outcomes: list[EncodedFile | _Unindexed] = []
    for file, outcome in zip(files, reply.outcomes, strict=True):
        if isinstance(outcome, ParsedChunks):
            outcomes.append(EncodedFile(ParsedFile(file, outcome.chunks()), outcome.sparse))
        else:
            outcomes.append(_unindexed(file, outcome))
    return outcomes


def _unindexed(file: FileToIndex, outcome: NotParsed) -> _Unindexed:
    if outcome.parse_error is not None:
        logger.warning("parsing %s failed: %s", file.path, outcome.parse_error)
    return _Unindexed(file, outcome.reason, drop_old_points=outcome.drop_old_points, skip_reason=outcome.skip_reason)


def _parse_files(
    files: Sequence[FileToIndex], blobs: dict[str, bytes | None], run: _Run
) -> list[ParsedFile | _Unindexed]:
    """Decode and parse files in a worker thread (pure: settling happens back on the event loop)."""
    outcomes: list[ParsedFile | _Unindexed] = []
    max_file_bytes = run.deps.settings.rules.max_file_bytes
    for file in files:
        outcome = parse_file(
            file.path, blobs.get(file.blob_sha), max_file_bytes=max_file_bytes, max_chars=run.deps.embedder.max_chars
        )
        outcomes.append(_unindexed(file, outcome) if isinstance(outcome, NotParsed) else ParsedFile(file, outcome))
    return outcomes


def _with_symbol_dates(encoded: list[EncodedFile], run: _Run, dating: HistoryLineDates | None) -> list[EncodedFile]:
    """Date every file's chunks: by the history of its code lines, or carried from earlier dates."""
    dated: list[EncodedFile] = []
    for item in encoded:
        parsed = item.parsed
        path = parsed.file.path
        blamed = (
            # Waits until this file's dates are final (usually long before the pass ends).
            dating.dates(path, max(chunk.end_line for chunk in parsed.chunks))
            if dating is not None and _dated_by_history(parsed)
            else None
        )
        file_date = run.stamp.for_path(path)
        dates: list[SymbolDate | None] = [
            # Scan skipped and nothing better known: the field stays out, as last_modified_at does.
            None if date.source is None and isinstance(file_date, msgspec.UnsetType) else date
            for date in chunk_dates(
                parsed.chunks,
                epochs=blamed,
                carried=run.carried.get(path, {}),
                file_date=file_date if isinstance(file_date, str) else None,
            )
        ]
        dated.append(EncodedFile(ParsedFile(parsed.file, parsed.chunks, dates), item.sparse))
    return dated


async def _settle(run: _Run, outcome: _Unindexed) -> None:
    """Account for a file that gets no new points: skipped for its content, blank, or failed.

    A content skip (binary, too large, not UTF-8) is reported once, in ``skipped`` with its reason: it
    is the tree's content, not a failure of the run. A blank file counts as changed only when it
    had points to lose, and otherwise as unchanged (never as added: nothing of it is stored, so
    every run would add it again).
    """
    file = outcome.file
    if outcome.drop_old_points and file.old_point_ids:
        await asyncio.to_thread(run.deps.store.delete_points, file.old_point_ids)
        run.tally.chunks_deleted += len(file.old_point_ids)
    if outcome.skip_reason is not None:
        run.tally.skipped.add(outcome.skip_reason, file.path)
    elif outcome.reason is not None:
        run.tally.failed.append(FailedFile(path=file.path, reason=outcome.reason))
    elif file.old_point_ids:
        run.tally.files_changed += 1
    else:
        run.tally.files_blank += 1
    run.tally.files_done += 1


def _write(run: _Run, encoded: Sequence[EncodedFile]) -> tuple[int, int]:
    """Upsert the group's new points (no dense vector yet), then delete each file's old points that are
    not among them.

    Every point carries its file's chunk count, so a write cut short between two batches leaves a file
    the next plan sees as incomplete (changed), never as indexed.

    Returns:
        (points written, old points deleted).
    """
    points: list[ChunkPoint] = []
    replaced: list[str] = []
    for item in encoded:
        file = item.parsed.file
        version = FileVersion(
            repo_key=run.repo_key,
            blob_sha=file.blob_sha,
            chunk_count=len(item.parsed.chunks),
            run_id=run.run_id,
            added=file.is_new,
            stamp=run.stamp.for_path(file.path),
            indexed_at=run.indexed_at,
        )
        ids = chunk_point_ids(run.repo_key, item.parsed.chunks)
        symbol_dates = item.parsed.symbol_dates or [None] * len(item.parsed.chunks)
        for point_id, chunk, sparse, date in zip(ids, item.parsed.chunks, item.sparse, symbol_dates, strict=True):
            points.append(ChunkPoint(id=point_id, sparse=sparse, payload=chunk_payload(chunk, version, date)))
        replaced.extend(file.old_point_ids.difference(ids))
    # Order matters: until the upsert returns, every file still has its old points (no gap).
    run.deps.store.upsert(points)
    if replaced:
        run.deps.store.delete_points(replaced)
    return len(points), len(replaced)


def _chunks_indexed(
    request: RepoUpdated,
    *,
    recency: FileRecencyComputed | None,
    run: _Run,
    state: MirrorState,
    deps: IndexerDeps,
    calls_before: int,
    started: float,
) -> ChunksIndexed:
    cause = recency.event_id if recency is not None else request.event_id
    tally = run.tally
    points_total = deps.store.count(run.repo_key)
    points_missing_dense = deps.store.count_missing_dense(run.repo_key)
    return ChunksIndexed(
        event_id=event_id_for(ChunksIndexed, request.run_id, cause),
        run_id=request.run_id,
        occurred_at=utc_now_iso(),
        repo=request.repo,
        head_sha=state.head_sha,
        collection=deps.store.collection,
        files_seen=run.plan.files_seen,
        files_unchanged=run.plan.unchanged - tally.files_by_earlier_attempts + tally.files_blank,
        files_changed=tally.files_changed,
        files_added=tally.files_added,
        files_deleted=tally.files_deleted,
        files_restamped=tally.files_restamped,
        failed_files=sorted(tally.failed, key=lambda failed: failed.path),
        skipped=tally.skipped.to_event(),
        chunks_upserted=tally.chunks_upserted,
        chunks_deleted=tally.chunks_deleted,
        embedding_calls=max(0, deps.embedder.calls - calls_before),
        points_total=points_total,
        points_missing_dense=points_missing_dense,
        recency_status=run.stamp.status,
        duration_seconds=round(time.perf_counter() - started, 3),
    )
