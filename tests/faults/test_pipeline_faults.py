"""Faults of a whole run: every embedded service hosted in this process on a real nats-server, the
real embedded store, real git repositories, and providers as local HTTP servers.

The invariant is checked against a reference: the same repository indexed on a fresh home with no
fault. Every file is present exactly once (same blob, same point ids, same count), every point has its
dense vector, and nothing the fault touched leaks, runs or hangs.
"""

from __future__ import annotations

import base64
import os
import shutil
import signal
import uuid
from pathlib import Path
from typing import Any

import pytest

from sextant.bus import EmbeddedNats
from sextant.contracts import (
    STREAM_NAME,
    AnalysisCompleted,
    ChunksEmbedded,
    ChunksIndexed,
    Event,
    FileRecencyComputed,
    RepoRef,
    StageFailed,
    SummaryCompleted,
)

from ..conftest import GitRepo
from ..support.events import repo_updated
from ..support.git_forge import FakeForge, fake_forge
from ..support.git_trace import Trace2, trace2
from ..support.odd_trees import DOTDOT, ODD, commit_with_dotdot_entry, make_bomb
from ..support.processes import is_gone
from ..support.provider_server import ProviderServer, Reply
from ..support.wire_formats import anthropic_echo
from .conftest import (
    Pipeline,
    embeddings,
    failures,
    hosted,
    hosted_embeddings_env,
    python_repository,
    reference,
    request_for,
    resident_memory,
    snapshot,
    wait_until,
)

__all__ = ["embeddings", "fake_forge", "trace2"]

pytestmark = [pytest.mark.faults, pytest.mark.bus, pytest.mark.timeout(300)]


def first(events: list[Event], kind: type[Event]) -> Any:
    return next(e for e in events if isinstance(e, kind))


async def test_nats_server_killed_mid_index_then_restarted_leaves_every_file_once(
    tmp_path: Path, embeddings: ProviderServer, caplog: pytest.LogCaptureFixture
) -> None:
    repo = python_repository(tmp_path / "repo", files=12, functions=3).as_uri()
    env = hosted_embeddings_env(tmp_path / "home", embeddings)
    server = EmbeddedNats(tmp_path / "nats")
    port = int(server.start().rsplit(":", 1)[1])
    pipeline = await Pipeline(env, server.url).start()
    try:
        request = request_for(repo)
        after = await pipeline.publish(request)
        # The scan is stored: the indexer now holds the delivery. SIGKILL the server under it.
        await pipeline.follow(request.run_id, after, lambda seen: any(isinstance(e, FileRecencyComputed) for e in seen))
        killed = server.pid or 0
        os.kill(killed, signal.SIGKILL)
        await wait_until(lambda: is_gone(killed), "the killed nats-server exits")
        server.stop()
        server = EmbeddedNats(tmp_path / "nats", port=port)
        server.start()
        events = await pipeline.follow(request.run_id, after)
        stored = snapshot(env, request.repo.repo_key, pipeline.adapters)
    finally:
        await pipeline.stop()
        server.stop()

    assert not failures(events)
    assert first(events, ChunksEmbedded).points_missing == 0
    assert stored.missing_dense == 0
    expected = await reference(tmp_path, embeddings, repo)
    stored.assert_each_file_once(expected)
    # The run is counted whole, however many deliveries the outage cost it.
    assert first(events, ChunksIndexed).files_added == len(expected.files)
    # The outage is in the log, both ways.
    assert "disconnected from NATS" in caplog.text
    assert "reconnected to NATS" in caplog.text


async def test_a_replayed_request_and_an_unchanged_rerun_store_nothing_twice_and_fetch_no_blob(
    tmp_path: Path, embeddings: ProviderServer, trace2: Trace2
) -> None:
    repo = python_repository(tmp_path / "repo", files=5, functions=2).as_uri()
    env = hosted_embeddings_env(tmp_path / "home", embeddings)
    async with hosted(env, tmp_path / "nats") as pipeline:
        request = request_for(repo)
        events = await pipeline.run(request)
        before = snapshot(env, request.repo.repo_key, pipeline.adapters)
        embedded_texts = len(embeddings.requests)
        first_run = trace2.spawned()

        assert pipeline.bus is not None
        assert await pipeline.bus.publish(request) is False  # the same request again: stored once
        trace2.clear()
        rerun = await pipeline.run(request_for(repo))
        after = snapshot(env, request.repo.repo_key, pipeline.adapters)
        total = await pipeline.bus.js.stream_info(STREAM_NAME)

    indexed, again = first(events, ChunksIndexed), first(rerun, ChunksIndexed)
    assert not failures(events + rerun)
    assert (again.files_unchanged, again.chunks_upserted) == (indexed.files_added, 0)
    assert first(rerun, ChunksEmbedded).points_embedded == 0
    assert len(embeddings.requests) == embedded_texts  # nothing embedded twice
    after.assert_each_file_once(before)
    # The recency scan reads a blob-less clone and never makes git fetch a blob for it; the unchanged
    # rerun fetches nothing at all.
    assert not [child for parent, child in first_run if child[:1] == ["fetch"] and parent[:1] == ["log"]]
    assert not [child for _, child in trace2.spawned() if child[:1] == ["fetch"]]
    assert total.state.messages > 0


async def test_a_deleted_store_is_rebuilt_whole(tmp_path: Path, embeddings: ProviderServer) -> None:
    repo = python_repository(tmp_path / "repo", files=5, functions=2).as_uri()
    env = hosted_embeddings_env(tmp_path / "home", embeddings)
    repo_key = RepoRef.for_url(repo).repo_key
    with EmbeddedNats(tmp_path / "nats") as server:
        async with Pipeline(env, server.url) as pipeline:
            await pipeline.run(request_for(repo))
        before = snapshot(env, repo_key)
        shutil.rmtree(tmp_path / "home" / "qdrant")
        async with Pipeline(env, server.url) as pipeline:
            events = await pipeline.run(request_for(repo))
            rebuilt = snapshot(env, repo_key, pipeline.adapters)

    assert not failures(events)
    assert first(events, ChunksIndexed).files_added == len(before.files)
    assert rebuilt.missing_dense == 0
    rebuilt.assert_each_file_once(before)


def hostile_tree(repo: GitRepo, outside: Path, marker: Path) -> set[str]:
    """Odd names, a ``..`` entry, a symlink out of the tree and an ``ext::`` submodule; returns the
    text form of every regular file that should be indexed."""
    outside.write_text("OUTSIDE_THE_TREE = 'never indexed'\n")
    for raw in ODD:
        (repo.root / Path(raw.decode("utf-8", "surrogateescape"))).write_bytes(b"def function():\n    return 1\n")
    (repo.root / "escape_link.py").symlink_to(outside)
    repo.write(".gitmodules", f'[submodule "evil"]\n\tpath = evil\n\turl = ext::sh -c touch% {marker}\n')
    repo.commit("hostile names")
    head = repo.git("rev-parse", "HEAD").strip()
    repo.git("update-index", "--add", "--cacheinfo", f"160000,{head},evil")
    repo.commit("an ext:: submodule")
    commit_with_dotdot_entry(repo)
    return {*ODD.values(), DOTDOT, ".gitmodules"}


@pytest.mark.parametrize("address", ["in place", "file URL"])
async def test_a_hostile_tree_indexes_every_regular_file_once_and_runs_nothing(
    tmp_path: Path, embeddings: ProviderServer, git_repo: GitRepo, address: str
) -> None:
    marker = tmp_path / "EXECUTED"
    expected = hostile_tree(git_repo, tmp_path / "outside.py", marker)
    repo = str(git_repo.root) if address == "in place" else git_repo.url
    env = hosted_embeddings_env(tmp_path / "home", embeddings)
    async with hosted(env, tmp_path / "nats") as pipeline:
        request = request_for(repo)
        events = await pipeline.run(request)
        stored = snapshot(env, request.repo.repo_key, pipeline.adapters)
        texts = [p.text for p in pipeline.adapters.store.scroll_payloads(request.repo.repo_key)]  # type: ignore[union-attr]

    assert not failures(events)
    assert not marker.exists(), "the ext:: submodule URL ran a command"
    assert set(stored.files) == expected  # the symlink and the gitlink are no regular files
    assert all(times == 1 for times in stored.chunks.values())
    assert stored.missing_dense == 0
    assert not [text for text in texts if "OUTSIDE_THE_TREE" in text]
    assert set(first(events, FileRecencyComputed).dates or {}) >= set(ODD.values())


def sent_credentials(authorization: str) -> str:
    """The secret in an Authorization header (Basic credentials decoded; a bearer token as it is)."""
    scheme, _, value = authorization.partition(" ")
    return base64.b64decode(value).decode().partition(":")[2] if scheme == "Basic" else value


SECRET_IN_ENV = "ghs_FaultSuiteEnvironmentToken0042"
SECRET_IN_URL = "glpat-FaultSuiteUrlToken0042"


async def test_a_token_from_the_environment_or_the_event_shows_nowhere(
    tmp_path: Path,
    embeddings: ProviderServer,
    fake_forge: FakeForge,
    trace2: Trace2,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level("DEBUG")
    env = {**hosted_embeddings_env(tmp_path / "home", embeddings), "GIT_TOKEN": SECRET_IN_ENV}
    async with hosted(env, tmp_path / "nats") as pipeline:
        plain = request_for(fake_forge.url)
        events = await pipeline.run(plain)
        with_userinfo = fake_forge.url.replace("http://", f"http://oauth2:{SECRET_IN_URL}@")
        hostile = repo_updated(RepoRef(repo_key=plain.repo.repo_key, url=with_userinfo), uuid.uuid4().hex)
        input_sequence = await pipeline.publish(hostile) + 1
        events += await pipeline.follow(hostile.run_id, input_sequence - 1)
        assert pipeline.bus is not None
        stored = [
            (sequence, raw.data + repr(raw.headers).encode())
            async for sequence, _, raw in pipeline.bus.read()
        ]  # fmt: skip

    assert len(failures(events)) >= 2  # each run ends visibly (the forge refuses both)
    assert SECRET_IN_ENV in [sent_credentials(h.get("Authorization", "")) for h in fake_forge.seen_headers]
    everything = {
        "the stream": b"".join(data for sequence, data in stored if sequence != input_sequence),
        "the logs": caplog.text.encode(),
        "git's trace": trace2.text().encode(),
        "the home": b"".join(p.read_bytes() for p in (tmp_path / "home").rglob("*") if p.is_file()),
        "the nats-server log": (tmp_path / "nats" / "nats-server.log").read_bytes(),
    }
    for where, content in everything.items():
        for secret in (SECRET_IN_ENV, SECRET_IN_URL):
            assert secret.encode() not in content, f"{secret} found in {where}"


EMBEDDING_FAULTS = [
    # Faults without a server-named delay first: the client's own backoff grows with each retry.
    Reply(delay=3.0),  # longer than EMBEDDINGS_TIMEOUT
    Reply(raw=b'{"object": "list", "data": [{"embedd'),  # garbage JSON
    Reply(raw=b'{"object": "list", "data": "\xff\xfe\xfa"}'),  # not UTF-8
    Reply(status=429, body={"error": {"message": "slow down"}}, headers={"retry-after": "0"}),
    Reply(status=500, body={"error": {"message": "internal"}}, headers={"retry-after": "0"}),
    Reply(status=503, raw=b"<html>upstream down</html>", headers={"retry-after": "0"}),
]


async def test_embedding_provider_faults_are_retried_and_every_point_gets_its_vector(
    tmp_path: Path, embeddings: ProviderServer
) -> None:
    repo = python_repository(tmp_path / "repo", files=4, functions=2).as_uri()
    env = {
        **hosted_embeddings_env(tmp_path / "home", embeddings),
        "EMBEDDINGS_TIMEOUT": "1",
        "EMBEDDINGS_MAX_ATTEMPTS": str(len(EMBEDDING_FAULTS) + 1),
        "EMBEDDINGS_CONCURRENCY": "1",
    }
    embeddings.script(*EMBEDDING_FAULTS)
    async with hosted(env, tmp_path / "nats") as pipeline:
        request = request_for(repo)
        events = await pipeline.run(request)
        stored = snapshot(env, request.repo.repo_key, pipeline.adapters)

    embedded = first(events, ChunksEmbedded)
    assert not failures(events)
    assert (embedded.complete, embedded.points_missing, stored.missing_dense) == (True, 0, 0)
    assert len(embeddings.requests) == len(EMBEDDING_FAULTS) + embedded.embedding_calls
    assert stored.points == embedded.points_total == sum(len(ids) for _, ids in stored.files.values())
    assert set(stored.chunks.values()) == {1}


async def test_an_embedding_provider_that_stays_down_ends_the_run_visibly_with_the_text_index_whole(
    tmp_path: Path, embeddings: ProviderServer
) -> None:
    repo = python_repository(tmp_path / "repo", files=3, functions=2).as_uri()
    env = {**hosted_embeddings_env(tmp_path / "home", embeddings), "EMBEDDINGS_MAX_ATTEMPTS": "2"}
    embeddings.script(*[Reply(status=503, body={"error": {"message": "down"}})] * 200)
    async with hosted(env, tmp_path / "nats") as pipeline:
        request = request_for(repo)
        events = await pipeline.run(request, lambda seen: any(isinstance(e, ChunksEmbedded) for e in seen))
        stored = snapshot(env, request.repo.repo_key, pipeline.adapters)

    embedded = first(events, ChunksEmbedded)
    assert not embedded.complete
    assert "503" in (embedded.reason or "")
    assert embedded.points_missing == stored.points == stored.missing_dense > 0
    assert all(times == 1 for times in stored.chunks.values())


LLM_FAULTS = [
    Reply(delay=4.0),  # longer than LLM_TIMEOUT_SECONDS
    Reply(raw=b'{"id": "msg_01", "content": [{"type": "te'),
    Reply(raw=b'{"id": "msg_01", "content": "\xff\xfe"}'),
    Reply(status=429, body={"type": "error", "error": {"type": "rate_limit_error"}}, headers={"retry-after": "0"}),
    Reply(status=529, body={"type": "error", "error": {"type": "overloaded_error"}}, headers={"retry-after": "0"}),
    Reply(status=500, raw=b"internal", headers={"retry-after": "0"}),
]


def analysed(events: list[Event]) -> bool:
    return bool(failures(events)) or (
        any(isinstance(e, AnalysisCompleted) for e in events) and any(isinstance(e, SummaryCompleted) for e in events)
    )


@pytest.mark.parametrize("outcome", ["recovers", "stays down"])
async def test_language_model_faults_are_retried_or_named_in_the_analysis(
    tmp_path: Path, embeddings: ProviderServer, outcome: str
) -> None:
    llm = ProviderServer(answer=anthropic_echo)
    llm.start()
    repo = python_repository(tmp_path / "repo", files=2, functions=1).as_uri()
    attempts = len(LLM_FAULTS) + 1 if outcome == "recovers" else 2
    env = {
        **hosted_embeddings_env(tmp_path / "home", embeddings),
        "LLM_PROVIDER": "anthropic",
        "ANTHROPIC_API_KEY": "sk-ant-fault-suite",
        "ANTHROPIC_BASE_URL": llm.url,
        "LLM_TIMEOUT_SECONDS": "2",
        "LLM_MAX_ATTEMPTS": str(attempts),
    }
    llm.script(*(LLM_FAULTS if outcome == "recovers" else [Reply(status=503, body={})] * 2 * attempts))
    try:
        async with hosted(env, tmp_path / "nats") as pipeline:
            events = await pipeline.run(request_for(repo), analysed)
    finally:
        llm.stop()

    assert not failures(events)
    analysis = first(events, AnalysisCompleted)
    if outcome == "recovers":
        assert "system=" in analysis.markdown  # the model's answer arrived
        assert not analysis.warnings
        assert len(llm.requests) == len(LLM_FAULTS) + 2  # the faults, then the analysis and the summary
    else:
        assert any("503" in warning for warning in analysis.warnings), analysis.warnings
        assert len(llm.requests) == 2 * attempts  # each call gave up after its attempts, no more


BOMB_MEMORY_BOUND = 150 * 1024 * 1024
"""The listing is streamed and stops at the cap; the whole 10**5-path listing is never held."""


async def test_a_tree_bomb_fails_its_stage_in_bounded_memory_and_the_services_stay_healthy(
    tmp_path: Path, embeddings: ProviderServer
) -> None:
    bomb = make_bomb(tmp_path / "bomb").as_uri()
    healthy = python_repository(tmp_path / "repo", files=2, functions=1).as_uri()
    env = {**hosted_embeddings_env(tmp_path / "home", embeddings), "INDEX_MAX_TREE_ENTRIES": "2000"}
    async with hosted(env, tmp_path / "nats") as pipeline:
        before = peak = resident_memory()
        request = request_for(bomb)
        after = await pipeline.publish(request)

        def ended_sampling(seen: list[Event]) -> bool:
            nonlocal peak
            peak = max(peak, resident_memory())
            return bool(failures(seen)) or any(isinstance(e, ChunksEmbedded) for e in seen)

        events = await pipeline.follow(request.run_id, after, ended_sampling)
        later = await pipeline.run(request_for(healthy))

    [failed] = [e for e in events if isinstance(e, StageFailed)]
    assert "INDEX_MAX_TREE_ENTRIES" in failed.reason
    assert peak - before < BOMB_MEMORY_BOUND, f"grew by {(peak - before) >> 20} MiB"
    assert not failures(later)
    assert first(later, ChunksEmbedded).complete
