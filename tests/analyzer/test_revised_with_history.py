"""A first run's analysis is revised within the run once its history fetch ends, and only if that changes a finding.

The selector, the analyzer and its reviser run as services on a real nats-server over the embedded
store; the indexer runs on a real blob-less mirror of a repository served over file://, and is
called directly so the test can hold the remote's upload-pack (a gate) once the run's own reads are
done: the history fetch that follows the run then ends only after the first analysis is published,
whatever the machine's speed. The model is a local OpenAI-compatible server whose requests are counted.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
import pytest

from sextant.analyzer import app as analyzer
from sextant.analyzer.config import AnalyzerSettings
from sextant.analyzer.handlers import Writing
from sextant.analyzer.previous_outputs import StreamOutputs
from sextant.analyzer.revision import Reviser, on_history_hydrated
from sextant.analyzer.run_records import StreamRuns
from sextant.bootstrap import bootstrap, host_all
from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.chunkstore import collection_name
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import (
    AnalysisCompleted,
    AnyEvent,
    ChunksIndexed,
    DocClaimsRejudged,
    EventParked,
    HistoryHydrated,
    RepoRef,
    StageFailed,
    SummaryCompleted,
)
from sextant.gitsource.access import RepoSource
from sextant.gitsource.history_blobs import UNDER_WAY_NOTE
from sextant.indexer import IndexerDeps, IndexerSettings, IndexProgress, index_repository
from sextant.indexer.history_hydration import history_fetches_settled
from sextant.selector import app as selector

from ..doc_claims.test_blobless_fallback import sessions_history
from ..indexer.test_history_hydration import hold_fetches
from ..support.events import event, file_recency_computed, repo_updated
from ..support.wire_formats import openai_chat_completion
from .test_no_wasted_model_calls import ANALYSIS, SUMMARY

pytestmark = pytest.mark.bus


@dataclass
class HeldRun:
    """What one run said before and after its history fetch was let through."""

    first: AnalysisCompleted
    rejudged: DocClaimsRejudged
    revised: AnalysisCompleted | None
    calls_before_release: int
    calls_after: int
    current: AnalysisCompleted | None
    """The repository's current analysis on the stream once the run is over."""
    redelivered: list[Any]
    """What handling the same HistoryHydrated again gave (a redelivery after a crash)."""
    calls_after_redelivery: int


async def run_events(bus: Bus, run_id: str, done: Callable[[list[AnyEvent]], bool]) -> list[AnyEvent]:
    """The run's events, read from the stream as they arrive, until ``done`` says enough."""
    seen: list[AnyEvent] = []
    async for _, heard, _ in bus.read("sextant.>", follow=True):
        if heard is None or heard.run_id != run_id:
            continue
        assert not isinstance(heard, StageFailed | EventParked), heard
        seen.append(heard)
        if done(seen):
            return seen
    raise AssertionError("the stream ended first")


def has(event_type: type[Any], *more: type[Any]) -> Callable[[list[AnyEvent]], bool]:
    return lambda seen: all(any(isinstance(e, t) for e in seen) for t in (event_type, *more))


async def run_with_history_held(
    git_repo: Any,
    tmp_path: Path,
    env: dict[str, str],
    embedder: Any,
    provider: Any,
    *,
    meanwhile: Callable[[Bus, ChunksIndexed], Awaitable[object]] | None = None,
) -> HeldRun:
    store = EdgeChunkStore(tmp_path / "qdrant", collection_name(embedder.model_id, embedder.dimension), 26)
    adapters = bootstrap(env, store=store, embedder=embedder)
    services = host_all([selector.SERVICE, analyzer.SERVICE, analyzer.REVISER], adapters, env)
    deps = IndexerDeps.from_adapters(IndexerSettings.from_env(env), adapters)
    ref = RepoRef.for_url(git_repo.url, branch="main")
    git_dir = deps.mirrors.mirror_dir(RepoSource(git_repo.url, branch="main"))
    released: list[Path] = []

    def hold_once_the_run_is_done(progress: IndexProgress) -> None:
        if progress.phase == "done":  # the run's own reads are over: only the history fetch is held
            released.append(hold_fetches(git_dir, tmp_path))

    try:
        with EmbeddedNats(tmp_path / "nats") as server:
            bus = Bus(build_broker(server.url))
            await start_routers(bus, services)
            try:
                request = repo_updated(ref, "held-run")
                recency = file_recency_computed(request, "skipped", None)
                indexed = await index_repository(request, recency, deps, hold_once_the_run_is_done, bus.publish)
                assert indexed.history_fetch_follows
                await bus.publish(indexed)  # as the indexer service does
                before = await asyncio.wait_for(
                    run_events(bus, "held-run", has(AnalysisCompleted, SummaryCompleted)), 120
                )
                calls_before_release = len(provider.requests)
                if meanwhile is not None:
                    await meanwhile(bus, indexed)
                released[0].touch()
                seen = await asyncio.wait_for(run_events(bus, "held-run", has(DocClaimsRejudged)), 120)
                await history_fetches_settled()
                calls_after = len(provider.requests)
                first = next(e for e in before if isinstance(e, AnalysisCompleted))
                rejudged = next(e for e in seen if isinstance(e, DocClaimsRejudged))
                revised = next((e for e in seen if isinstance(e, AnalysisCompleted) and e.provenance.revision_of), None)
                hydrated = next(e for e in seen if isinstance(e, HistoryHydrated))
                current = await StreamOutputs(bus).last_analysis(ref.repo_key)
                writing = Writing(adapters.store, adapters.model, AnalyzerSettings.from_env(env), StreamOutputs(bus))
                again = await on_history_hydrated(hydrated, Reviser(writing=writing, runs=StreamRuns(bus)))
                return HeldRun(
                    first=first,
                    rejudged=rejudged,
                    revised=revised,
                    calls_before_release=calls_before_release,
                    calls_after=calls_after,
                    current=current,
                    redelivered=again,
                    calls_after_redelivery=len(provider.requests),
                )
            finally:
                await bus.close()
    finally:
        store.close()


def model_env(tmp_path: Path, provider: Any) -> dict[str, str]:
    provider.replies = [(200, openai_chat_completion(f"{ANALYSIS}\n\n{SUMMARY}", model="gpt-test"))]
    return {
        "SEXTANT_HOME": str(tmp_path / "home"),
        "INDEX_PARSE_PROCESS": "false",
        "LLM_PROVIDER": "openai",
        "LLM_BASE_URL": f"{provider.url}/v1",
        "LLM_MODEL": "gpt-test",
    }


async def test_a_removed_name_judged_without_history_is_revised_once_it_is_fetched_with_one_model_call(
    git_repo: Any, tmp_path: Path, letter_embedder: Any, provider: Any
) -> None:
    sessions_history(git_repo)
    rename = git_repo.git("log", "-1", "--format=%h", "--grep=Rename").strip()

    run = await run_with_history_held(git_repo, tmp_path, model_env(tmp_path, provider), letter_embedder, provider)

    early = next(claim for claim in run.first.doc_claims if claim.ref == "SyncSession()")
    assert early.status == "unverifiable"
    assert UNDER_WAY_NOTE in early.evidence
    assert run.first.provenance.doc_history_note == UNDER_WAY_NOTE
    assert run.calls_before_release == 2  # the analysis and the summary

    assert run.revised is not None
    assert run.calls_after == 3  # one more: the revised analysis, whose findings changed
    late = next(claim for claim in run.revised.doc_claims if claim.ref == "SyncSession()")
    assert (late.status, late.removed_by) == ("contradicted", f"{rename} Rename SyncSession to Session")
    assert run.revised.provenance.revision_of == run.first.event_id
    assert run.revised.provenance.doc_history_note is None
    assert "the whole history, now fetched" in run.revised.markdown
    assert run.revised.run_id == run.first.run_id
    assert run.revised.fingerprint != run.first.fingerprint
    assert run.rejudged.revised
    assert run.rejudged.analysis_event_id == run.revised.event_id
    assert run.rejudged.claims_after["contradicted"] == run.rejudged.claims_before["contradicted"] + 1
    assert run.current is not None
    assert run.current.event_id == run.revised.event_id

    # A redelivery (the process died before acking) finds the revision stored: same news, no model call.
    [again] = run.redelivered
    assert isinstance(again, DocClaimsRejudged)
    assert (again.event_id, again.revised, again.analysis_event_id) == (
        run.rejudged.event_id,
        True,
        run.revised.event_id,
    )
    assert again.claims_after == run.rejudged.claims_after
    assert run.calls_after_redelivery == 3


async def test_findings_the_history_does_not_change_cost_no_model_call_and_no_new_analysis(
    git_repo: Any, tmp_path: Path, letter_embedder: Any, provider: Any
) -> None:
    git_repo.commit_files(
        "one",
        {
            "app/sessions.py": "def open_session(user):\n    return {}\n",
            # `NeverWritten` stays unverifiable; only its evidence's wording changes once the history is in
            "docs/usage.md": "# Usage\n\nCall `open_session()` from `app/sessions.py`, then `NeverWritten()`.\n",
        },
        date="2026-05-01T12:00:00+00:00",
    )
    git_repo.commit_files(
        "two",
        {"app/sessions.py": "def open_session(user):\n    return {'user': user}\n"},
        date="2026-05-02T12:00:00+00:00",
    )

    run = await run_with_history_held(git_repo, tmp_path, model_env(tmp_path, provider), letter_embedder, provider)

    early = next(claim for claim in run.first.doc_claims if claim.ref == "NeverWritten()")
    assert early.status == "unverifiable"
    assert UNDER_WAY_NOTE in early.evidence
    assert run.revised is None
    assert not run.rejudged.revised
    assert run.rejudged.reason == "the doc-claim findings are unchanged"
    assert run.rejudged.claims_after == run.rejudged.claims_before
    assert run.calls_after == run.calls_before_release == 2  # zero extra model calls
    assert run.current is not None
    assert run.current.event_id == run.first.event_id


async def test_a_later_runs_index_leaves_the_older_run_unrevised(
    git_repo: Any, tmp_path: Path, letter_embedder: Any, provider: Any
) -> None:
    sessions_history(git_repo)

    async def a_later_run_indexes(bus: Bus, indexed: ChunksIndexed) -> None:
        # Stands for a run that indexed the repository after this run's fetch ended (its date says so).
        later = msgspec.structs.replace(
            indexed, event_id="later-run-indexed", run_id="later-run", occurred_at="2999-01-01T00:00:00+00:00"
        )
        await bus.publish(later)
        # Its analysis is written while the history is still held: the same inputs, so no model call.
        await asyncio.wait_for(run_events(bus, "later-run", has(AnalysisCompleted, SummaryCompleted)), 120)

    env = model_env(tmp_path, provider)
    run = await run_with_history_held(git_repo, tmp_path, env, letter_embedder, provider, meanwhile=a_later_run_indexes)

    assert run.revised is None
    assert run.rejudged.reason == "a later run indexed the repository since; its analysis reads the history"
    assert run.calls_after == run.calls_before_release == 2


async def test_with_no_model_the_evidence_report_is_rebuilt_with_the_history(
    git_repo: Any, tmp_path: Path, letter_embedder: Any, provider: Any
) -> None:
    sessions_history(git_repo)
    env = {"SEXTANT_HOME": str(tmp_path / "home"), "INDEX_PARSE_PROCESS": "false", "LLM_PROVIDER": "none"}

    run = await run_with_history_held(git_repo, tmp_path, env, letter_embedder, provider)

    assert run.revised is not None
    assert run.revised.model == "none"
    assert "SyncSession()" in run.revised.sections["Documentation Accuracy"]
    assert "Rename SyncSession to Session" in run.revised.sections["Documentation Accuracy"]
    assert UNDER_WAY_NOTE not in run.revised.markdown
    assert run.calls_after == 0


async def test_an_unknown_repository_or_a_malformed_event_is_parked_with_the_reason(
    tmp_path: Path, letter_embedder: Any
) -> None:
    env = {"SEXTANT_HOME": str(tmp_path / "home"), "LLM_PROVIDER": "none"}
    store = EdgeChunkStore(
        tmp_path / "qdrant", collection_name(letter_embedder.model_id, letter_embedder.dimension), 26
    )
    adapters = bootstrap(env, store=store, embedder=letter_embedder)
    services = host_all([analyzer.REVISER], adapters, env)
    ref = RepoRef.for_url("https://example.invalid/never/indexed.git", branch="main")
    unknown = event(HistoryHydrated, ref, "stray-run", "a" * 40, head_sha="a" * 40)
    malformed = event(HistoryHydrated, ref, "odd-run", "none", head_sha=None)
    try:
        with EmbeddedNats(tmp_path / "nats") as server:
            bus = Bus(build_broker(server.url))
            await start_routers(bus, services)
            try:
                await bus.publish(unknown)
                await bus.publish(malformed)
                parked: dict[str, EventParked] = {}
                async for _, heard, _ in bus.read("sextant.>", follow=True):
                    if isinstance(heard, EventParked):
                        parked[heard.run_id] = heard
                    if len(parked) == 2:
                        break
            finally:
                await bus.close()
    finally:
        store.close()

    assert "unknown repository" in parked["stray-run"].reason
    assert parked["stray-run"].consumer == "analysis-reviser"
    assert "malformed HistoryHydrated" in parked["odd-run"].reason
