"""Failures: a provider rejecting one chunk, a provider down, unknown repositories and branches."""

from __future__ import annotations

from typing import Any

from sextant.embedding import OpenAICompatibleEmbedder, RetryPolicy
from sextant.indexer.handlers import on_file_recency_computed


def hosted(server: Any, attempts: int = 2) -> OpenAICompatibleEmbedder:
    return OpenAICompatibleEmbedder(
        model="test-embed",
        dimension=server.dimension,
        max_chars=400,
        batch_size=4,
        base_url=server.base_url,
        retry=RetryPolicy(max_attempts=attempts, base_delay=0.01, max_delay=0.05, timeout=5.0),
    )


def write_files(repo: Any, count: int) -> None:
    for number in range(count):
        repo.write(f"pkg/module_{number}.py", f"def handler_{number}(event):\n    return event + {number}\n")


async def test_chunk_rejected_by_provider_stays_without_dense_and_is_retried(
    build_harness: Any, embeddings_server: Any, fail_marker: str, git_repo: Any
) -> None:
    harness = build_harness(hosted(embeddings_server))
    write_files(git_repo, 6)
    git_repo.write("pkg/module_3.py", f"def handler_3(event):\n    # {fail_marker}\n    return event\n")
    git_repo.commit("seed")

    indexed, embedded = await harness.run_and_embed()

    assert (indexed.files_added, indexed.failed_files) == (6, [])  # the first phase never calls the provider
    assert (embedded.points_missing, embedded.complete) == (1, False)
    assert embedded.points_embedded == embedded.points_total - 1  # its neighbours went through
    assert embedded.reason is not None
    assert "input rejected" in embedded.reason
    [missing] = list(harness.deps.store.scroll_missing_dense(harness.ref.repo_key))
    assert missing.payload.path == "pkg/module_3.py"

    embeddings_server.reject_marker = False
    requests_before = len(embeddings_server.requests)
    again = await harness.embed(indexed)
    assert (again.points_embedded, again.points_missing, again.complete) == (1, 0, True)
    assert len(embeddings_server.requests) == requests_before + 1  # only the missing chunk, nothing re-embedded


async def test_provider_outage_stops_calling_and_the_next_pass_finishes(
    build_harness: Any, embeddings_server: Any, git_repo: Any
) -> None:
    harness = build_harness(hosted(embeddings_server, attempts=1))
    write_files(git_repo, 40)
    git_repo.commit("seed")
    embeddings_server.fail_all_status = 503

    indexed, embedded = await harness.run_and_embed()

    assert (indexed.files_added, indexed.failed_files) == (40, [])
    assert (embedded.points_embedded, embedded.points_missing) == (0, 40)
    assert embedded.reason is not None
    assert "unavailable" in embedded.reason
    assert len(embeddings_server.requests) <= 8  # bisection stops once three calls in a row failed
    assert harness.deps.store.count(harness.ref.repo_key) == 40  # payloads and sparse vectors are all there

    embeddings_server.fail_all_status = None
    recovered = await harness.embed(indexed)
    assert (recovered.points_embedded, recovered.points_missing, recovered.complete) == (40, 0, True)


async def test_missing_branch_is_a_stage_failure(build_harness: Any, hashing_embedder: Any, git_repo: Any) -> None:
    write_files(git_repo, 1)
    git_repo.commit("seed")
    harness = build_harness(hashing_embedder, branch="no-such-branch")
    request = harness.request()
    [event] = await on_file_recency_computed(harness.recency(request), harness.deps)
    assert event.__class__.__name__ == "StageFailed"
    assert event.stage == "indexer"  # type: ignore[union-attr]
    assert "no-such-branch" in event.reason  # type: ignore[union-attr]


async def test_unknown_repository_is_a_stage_failure(build_harness: Any, hashing_embedder: Any, tmp_path: Any) -> None:
    harness = build_harness(hashing_embedder, url=(tmp_path / "nowhere").as_uri())
    request = harness.request()
    [event] = await on_file_recency_computed(harness.recency(request), harness.deps)
    assert event.__class__.__name__ == "StageFailed"
    assert event.cause_event_id == harness.recency(request).event_id  # type: ignore[union-attr]


async def test_store_unavailable_is_a_stage_failure(build_harness: Any, hashing_embedder: Any, git_repo: Any) -> None:
    write_files(git_repo, 1)
    git_repo.commit("seed")
    harness = build_harness(hashing_embedder)
    harness.deps.store.close()  # a closed engine refuses every call, as an unreachable server would
    request = harness.request()
    [event] = await on_file_recency_computed(harness.recency(request), harness.deps)
    assert event.__class__.__name__ == "StageFailed"
    assert "chunk store unavailable" in event.reason  # type: ignore[union-attr]
