"""The middle test tier: service routers on FastStream's in-memory TestNatsBroker (no server at all).

It checks the wiring — subjects, durable consumers, the bus's decode/handle/publish/ack path — fast,
while the real-server tests prove JetStream semantics (de-duplication, redelivery, parking). A
service consuming from the bus has one test here: its declaration hosted as the runtime hosts it, one
event in, the events it publishes read back by a downstream consumer. Two are wired on a real
server only, because they use what the in-memory broker lacks: the embedder holds a JetStream
key-value lease (tests/indexer/test_through_bus.py), the analyzer reads its last output back from the
stream (tests/analyzer/test_end_to_end.py). The PR bot publishes nothing: its test reads the pull
request on a local GitHub instead. The webhooks service consumes HTTP, not the bus: its test posts a
signed push to the app in process and reads the RepoUpdated it publishes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TypeVar

import httpx
import pytest
from faststream.nats import TestNatsBroker

from sextant.bootstrap import Adapters, AnyDeclaration, bootstrap, host
from sextant.bus import Bus, build_broker, consume
from sextant.chunkstore import ChunkPoint, SparseVector, point_id
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import (
    STREAM_NAME,
    ChunksIndexed,
    ChunksSelected,
    Event,
    FileRecencyComputed,
    RepoRef,
    RepoUpdated,
    ReviewCompleted,
    StageFailed,
    encode_event,
    subject_for,
)
from sextant.indexer import app as indexer
from sextant.pr_bot import app as pr_bot
from sextant.recency_scanner import app as recency_scanner
from sextant.reviewer import app as reviewer
from sextant.selector import app as selector
from sextant.webhooks.config import WebhookSettings
from sextant.webhooks.http_app import create_app

from ..conftest import GitRepo
from ..pr_bot.conftest import GITHUB_TOKEN, FakeHost
from ..reviewer.test_search_mode import DIFF
from ..support.embedders import FakeEmbedder
from ..support.events import event, file_recency_computed, repo_updated, review_completed, review_requested
from ..support.payloads import chunk_payload
from ..webhooks.conftest import GITHUB_SECRET
from ..webhooks.hook_payloads import body_of, github_push, github_signature

REPO = RepoRef.for_url("https://example.com/acme/widgets.git")
IN_MEMORY_URL = "nats://in-memory.invalid:4222"
DATE = "2026-01-01"

E = TypeVar("E", bound=Event)


def recorded(bus: Bus, answer: type[E]) -> list[E]:
    """Every ``answer`` published on ``bus`` from now on, as a downstream consumer receives it."""
    received: list[E] = []

    async def record(published: E) -> Sequence[Event]:
        received.append(published)
        return []

    downstream = bus.router()
    consume(downstream, bus, event_type=answer, durable="test_downstream", stage="test", handle=record)
    bus.broker.include_router(downstream)
    return received


async def through_the_router(
    declaration: AnyDeclaration, adapters: Adapters, env: dict[str, str], request: Event, answer: type[E]
) -> list[E]:
    """Host one declared service on an in-memory broker, publish ``request``, return every ``answer``."""
    bus = Bus(build_broker(IN_MEMORY_URL))
    bus.broker.include_router(host(declaration, adapters, env).build(bus))
    received = recorded(bus, answer)
    async with TestNatsBroker(bus.broker) as broker:
        await broker.publish(encode_event(request), subject_for(request), stream=STREAM_NAME)
    return received


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EdgeChunkStore]:
    """The real embedded store, sized for the fake embedder."""
    opened = EdgeChunkStore(tmp_path / "qdrant", "inmemory_chunks", FakeEmbedder().dimension)
    yield opened
    opened.close()


def stored(store: EdgeChunkStore, paths: Sequence[str], *, dense: bool) -> None:
    """One dated chunk per path, with or without its dense vector."""
    store.upsert(
        [
            ChunkPoint(
                id=point_id(REPO.repo_key, path, path, 1, 0),
                dense=FakeEmbedder().vector(path) if dense else None,
                sparse=SparseVector(indices=[1], values=[1.0]),
                payload=chunk_payload(
                    REPO.repo_key, path, f"def f{n}():\n    return {n}\n", last_modified_at="2026-01-01"
                ),
            )
            for n, path in enumerate(paths)
        ]
    )


async def test_recency_router_answers_a_push_with_a_dated_map_in_memory() -> None:
    env = {"INDEX_FILE_RECENCY": "true"}
    request = repo_updated(REPO, changed_paths=["src/a.py"], head_commit_date="2026-03-04T05:06:07Z")
    [answer] = await through_the_router(recency_scanner.SERVICE, bootstrap(env), env, request, FileRecencyComputed)
    assert answer.status == "computed"
    assert answer.mode == "incremental"
    assert answer.dates is not None
    assert answer.dates["src/a.py"].startswith("2026-03-04")
    assert answer.request.event_id == request.event_id


async def test_indexer_router_indexes_a_real_repository_in_memory(
    git_repo: GitRepo, store: EdgeChunkStore, tmp_path: Path
) -> None:
    git_repo.write("src/app.py", "def main():\n    return 1\n")
    git_repo.commit("one")
    env = {"SEXTANT_HOME": str(tmp_path / "home")}
    adapters = bootstrap(env, store=store, embedder=FakeEmbedder())
    request = repo_updated(RepoRef.for_url(git_repo.url))
    [indexed] = await through_the_router(
        indexer.SERVICE, adapters, env, file_recency_computed(request, "skipped"), ChunksIndexed
    )
    assert (indexed.files_added, indexed.failed_files) == (1, [])
    assert indexed.run_id == request.run_id


async def test_selector_router_publishes_an_analysis_and_a_summary_selection_in_memory(
    store: EdgeChunkStore,
) -> None:
    stored(store, [f"src/m{n}.py" for n in range(5)], dense=True)
    indexed = event(ChunksIndexed, REPO, "run-1", head_sha="abc", files_seen=5)
    selected = await through_the_router(selector.SERVICE, bootstrap({}, store=store), {}, indexed, ChunksSelected)
    assert sorted(s.purpose for s in selected) == ["analysis", "summary"]
    assert all(len(s.chunks) == 5 for s in selected)


async def test_reviewer_router_reviews_a_diff_in_memory(store: EdgeChunkStore, tmp_path: Path) -> None:
    stored(store, ["shop/orders.py"], dense=True)
    env = {"SEXTANT_HOME": str(tmp_path / "home")}
    adapters = bootstrap(env, store=store, embedder=FakeEmbedder(), model=None)
    request = review_requested(REPO, "review-1", title="Add quantity", diff=DIFF)
    [review] = await through_the_router(reviewer.SERVICE, adapters, env, request, ReviewCompleted)
    assert review.request_id == request.event_id
    assert review.model == "none"


async def test_pr_bot_router_comments_on_the_pull_request_in_memory(github: FakeHost, tmp_path: Path) -> None:
    env = {"PR_BOT_GITHUB_TOKEN": GITHUB_TOKEN, "GITHUB_API_URL": github.url, "SEXTANT_HOME": str(tmp_path)}
    repo = RepoRef.for_url("https://github.com/octo/shop.git", provider="github")
    review = review_completed(repo, "run-1", "req-1", pr_number=12, markdown="## Review\n\nIn memory.")
    failures = await through_the_router(pr_bot.SERVICE, bootstrap(env), env, review, StageFailed)
    assert failures == []
    [comment] = github.comments.values()
    assert "In memory." in comment["body"]


async def test_webhooks_app_publishes_a_signed_push_in_memory() -> None:
    bus = Bus(build_broker(IN_MEMORY_URL), service="webhooks")
    received = recorded(bus, RepoUpdated)
    app = create_app(WebhookSettings(github_secret=GITHUB_SECRET, gitlab_token=None), bus)
    body = body_of(github_push("https://github.com/octo/shop.git"))
    headers = {"X-GitHub-Event": "push", "X-GitHub-Delivery": "delivery-1", "Content-Type": "application/json",
               "X-Hub-Signature-256": github_signature(GITHUB_SECRET, body)}  # fmt: skip
    transport = httpx.ASGITransport(app=app)
    async with TestNatsBroker(bus.broker), httpx.AsyncClient(transport=transport, base_url="http://webhooks") as http:
        response = await http.post("/hooks/github", content=body, headers=headers)
    assert response.status_code == 202
    [pushed] = received
    assert pushed.event_id == response.json()["event_id"]
    assert pushed.head_sha == "b" * 40
