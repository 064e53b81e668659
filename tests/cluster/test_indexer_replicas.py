"""Two indexer replicas, each its own process, share one durable consumer on a 3-node R3 cluster.

Two real recency scanner services (``python -m sextant.recency_scanner``) feed two indexer replicas.
The moment one replica has written points, it and one NATS node are killed with SIGKILL, mid-run.
The run completes, and then, for every repository:

- every run has exactly one ``ChunksIndexed`` in the stream, and nothing failed or was parked;
- every file's points are those one uninterrupted indexer writes (the same ids, the same count, one
  blob SHA per file), so nothing was lost, left half-written or written twice.

Two ways to give the replicas one store. Against a Qdrant server (``QDRANT_URL`` set) each replica is
the real ``python -m sextant.indexer`` service. Without one, each replica is ``store_host.py``: the
real indexer handler over the real embedded engine, which a process holds only for one delivery at a
time (qdrant-edge locks its folder), so here the replicas' writes are serialised at the store.
Every wait is for a condition under a generous deadline; nothing asserts on speed.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from sextant.bus import EmbeddedNats
from sextant.chunkstore import ChunkStore
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.chunkstore.model_store import store_for_model
from sextant.config import token_lookup
from sextant.contracts import (
    ChunksIndexed,
    EventParked,
    FileRecencyComputed,
    RepoRef,
    RepoUpdated,
    StageFailed,
    event_id_for,
    subject_pattern,
    utc_now_iso,
)
from sextant.embedding import embedder_from_env
from sextant.gitsource.mirror import RepoMirror
from sextant.indexer import IndexerDeps, IndexerSettings
from sextant.indexer.handlers import on_file_recency_computed

from .cluster_bus import DEADLINE_SECONDS, connect_when_ready, publish_until_stored, read_events, run_ids, wait_for_runs
from .processes import ServiceProcess, service_env, start_service
from .store_host import WROTE

pytestmark = [pytest.mark.cluster, pytest.mark.timeout(600)]

REPOS = 4
FILES = 6
RUNS_PER_REPO = 2
"""The second run of a repository finds every file unchanged: handling it must have no effect."""
STORE_HOST = Path(__file__).with_name("store_host.py")
# The indexer never embeds (the embedder service does); this only names the collection's vector size.
EMBEDDINGS = {
    "EMBEDDINGS_PROVIDER": "openai",
    "EMBEDDINGS_MODEL": "text-embedding-3-small",
    "EMBEDDINGS_DIMENSION": "64",
    "EMBEDDINGS_BASE_URL": "http://127.0.0.1:9/v1",
}

StartIndexer = Callable[[str, Path], ServiceProcess]


def python_repository(root: Path) -> Path:
    """A real git repository of FILES modules, two functions each (so each file has several points)."""
    root.mkdir(parents=True)
    for number in range(FILES):
        (root / f"module_{number}.py").write_text(
            f"def first_{number}(x: int) -> int:\n    return x + {number}\n\n\n"
            f"def second_{number}(y: str) -> str:\n    return y * {number}\n"
        )
    identity = ["-c", "user.name=Cluster", "-c", "user.email=cluster@example.com"]
    for args in (["init", "-q", "-b", "main"], ["add", "."], [*identity, "commit", "-q", "-m", "modules"]):
        subprocess.run(["git", *args], cwd=root, check=True)
    return root


def kill_the_first_writer(replicas: list[ServiceProcess], node: EmbeddedNats, writing: str) -> ServiceProcess:
    """SIGKILL the first replica seen writing points (it logged ``writing``: mid-run), and one NATS node."""
    end = time.monotonic() + DEADLINE_SECONDS
    while True:
        writer = next((replica for replica in replicas if replica.count(writing)), None)
        if writer is not None:
            break
        assert time.monotonic() < end, "no replica ever wrote points"
        time.sleep(0.05)  # polling a condition; what is asserted does not depend on when it holds
    assert node.pid is not None
    os.kill(node.pid, signal.SIGKILL)
    writer.kill()
    return writer


async def reference_points(events: list[FileRecencyComputed], folder: Path) -> dict[str, dict[str, frozenset[str]]]:
    """Per repository, path → point ids, as one uninterrupted indexer in this process writes them."""
    embedder = embedder_from_env(EMBEDDINGS)
    store = EdgeChunkStore(folder / "qdrant", "reference", embedder.dimension)
    settings = replace(IndexerSettings.from_env({"SEXTANT_ALLOW_LOCAL_REPOS": "true"}), tokens=token_lookup({}))
    deps = IndexerDeps(settings=settings, store=store, embedder=embedder, mirrors=RepoMirror(folder / "mirrors"))
    try:
        for event in events:
            outcome = await on_file_recency_computed(event, deps)
            assert isinstance(outcome[0], ChunksIndexed), outcome
        return {
            e.repo.repo_key: {path: entry.point_ids for path, entry in store.file_index(e.repo.repo_key).items()}
            for e in events
        }
    finally:
        store.close()


async def run_two_replicas(
    cluster: list[EmbeddedNats],
    tmp_path: Path,
    start_indexer: StartIndexer,
    open_store: Callable[[], ChunkStore],
    writing: str,
) -> None:
    repos = [python_repository(tmp_path / f"repo-{number}") for number in range(REPOS)]
    url = ",".join(node.url for node in cluster)
    client = await connect_when_ready(url)
    open_store().close()  # the collection exists before the replicas start, as an operator deploys it
    scanners = [
        start_service("sextant.recency_scanner", service_env(url, tmp_path / f"scanner-{n}"), f"scanner-{n}")
        for n in range(2)
    ]
    replicas = [start_indexer(url, tmp_path / f"indexer-{n}") for n in range(2)]
    expected: list[str] = []
    try:
        for run in range(RUNS_PER_REPO):
            for number, repo in enumerate(repos):
                run_id = f"index-{number}-{run}"
                expected.append(run_id)
                request = RepoUpdated(
                    event_id=event_id_for(RepoUpdated, run_id),
                    run_id=run_id,
                    occurred_at=utc_now_iso(),
                    repo=RepoRef.for_url(str(repo)),
                )
                await publish_until_stored(client, request)
        killed = await asyncio.to_thread(kill_the_first_writer, replicas, cluster[1], writing)

        def last_lines() -> str:
            return "".join(f"{p.name}: {line}" for p in [*scanners, *replicas] for line in p.lines[-12:])

        indexed = await wait_for_runs(client, subject_pattern(ChunksIndexed, "*"), len(expected), last_lines)
        failed = await run_ids(client, subject_pattern(StageFailed, "*"))
        parked = await run_ids(client, subject_pattern(EventParked, "*"))
        recency = await read_events(client, subject_pattern(FileRecencyComputed, "*"))
    finally:
        for process in [*scanners, *replicas]:
            process.kill()  # also hands the embedded store back
        await client.close()

    assert killed.count(writing) >= 1
    assert sorted(indexed) == sorted(expected), "a run was lost"
    assert set(indexed.values()) == {1}, "a redelivered run produced a second ChunksIndexed"
    assert not failed, f"stage failures: {failed}"
    assert not parked, f"parked: {parked}"

    first_runs = [e for e in recency if isinstance(e, FileRecencyComputed) and e.run_id.endswith("-0")]
    reference = await reference_points(first_runs, tmp_path / "reference")
    store = open_store()
    try:
        for repo_key, files in reference.items():
            stored = store.file_index(repo_key)
            assert {path: entry.point_ids for path, entry in stored.items()} == files, f"{repo_key}: other ids"
            assert all(entry.blob_sha for entry in stored.values()), f"{repo_key}: a file half-written"
            assert store.count(repo_key) == sum(len(ids) for ids in files.values()), f"{repo_key}: extra points"
            assert len(files) == FILES
    finally:
        store.close()


async def test_two_indexer_replicas_handing_the_embedded_store_over_lose_and_duplicate_nothing(
    cluster: list[EmbeddedNats], tmp_path: Path
) -> None:
    shared = tmp_path / "shared-qdrant"
    env_extra = {**EMBEDDINGS, "QDRANT_PATH": str(shared)}

    def start_indexer(url: str, home: Path) -> ServiceProcess:
        replica = ServiceProcess([str(STORE_HOST), "indexer"], service_env(url, home, **env_extra), home.name)
        replica.wait_for("consuming from")
        return replica

    def open_store() -> ChunkStore:
        return store_for_model(env_extra, embedder_from_env(env_extra))

    await run_two_replicas(cluster, tmp_path, start_indexer, open_store, writing=WROTE)


@pytest.mark.skipif(not os.environ.get("QDRANT_URL"), reason="needs a Qdrant server: set QDRANT_URL")
async def test_two_indexer_services_on_a_qdrant_server_lose_and_duplicate_nothing(
    cluster: list[EmbeddedNats], tmp_path: Path
) -> None:
    env_extra = {**EMBEDDINGS, "QDRANT_URL": os.environ["QDRANT_URL"]}
    if os.environ.get("QDRANT_API_KEY"):
        env_extra["QDRANT_API_KEY"] = os.environ["QDRANT_API_KEY"]

    def start_indexer(url: str, home: Path) -> ServiceProcess:
        return start_service("sextant.indexer", service_env(url, home, **env_extra), home.name)

    def open_store() -> ChunkStore:
        return store_for_model(env_extra, embedder_from_env(env_extra))

    # qdrant-client's HTTP log line of an upsert (PUT .../points?wait=true): the replica is mid-run.
    await run_two_replicas(cluster, tmp_path, start_indexer, open_store, writing="/points?wait=true")
