"""Failures: a provider rejecting one file, a provider down, unknown repositories and branches."""

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


async def test_file_rejected_by_provider_keeps_old_points_and_is_retried(
    build_harness: Any, embeddings_server: Any, fail_marker: str, git_repo: Any
) -> None:
    harness = build_harness(hosted(embeddings_server))
    write_files(git_repo, 6)
    git_repo.commit("seed")
    await harness.run()
    old = harness.index()["pkg/module_3.py"]

    git_repo.write("pkg/module_3.py", f"def handler_3(event):\n    # {fail_marker}\n    return event\n")
    git_repo.write("pkg/module_4.py", "def handler_4(event):\n    return event * 4\n")
    git_repo.commit("edit two")
    indexed = await harness.run()
    assert [failed.path for failed in indexed.failed_files] == ["pkg/module_3.py"]
    assert "embedding failed" in indexed.failed_files[0].reason
    assert "input rejected" in indexed.failed_files[0].reason
    assert indexed.files_changed == 1  # module_4 went through despite sharing a batch with module_3
    assert harness.index()["pkg/module_3.py"] == old  # old points kept, untouched

    embeddings_server.reject_marker = False
    retried = await harness.run()
    assert (retried.files_changed, retried.failed_files) == (1, [])
    assert harness.index()["pkg/module_3.py"].blob_sha == git_repo.git("rev-parse", "HEAD:pkg/module_3.py").strip()


async def test_new_file_rejected_by_provider_is_reported(
    build_harness: Any, embeddings_server: Any, fail_marker: str, git_repo: Any
) -> None:
    harness = build_harness(hosted(embeddings_server))
    write_files(git_repo, 3)
    git_repo.write("pkg/bad.py", f"BAD = '{fail_marker}'\n")
    git_repo.commit("seed")
    indexed = await harness.run()
    assert [failed.path for failed in indexed.failed_files] == ["pkg/bad.py"]
    assert indexed.files_added == 3
    assert "pkg/bad.py" not in harness.index()


async def test_provider_outage_stops_calling_and_keeps_everything(
    build_harness: Any, embeddings_server: Any, git_repo: Any
) -> None:
    harness = build_harness(hosted(embeddings_server, attempts=1))
    write_files(git_repo, 40)
    git_repo.commit("seed")
    embeddings_server.fail_all_status = 503
    indexed = await harness.run()
    assert len(indexed.failed_files) == 40
    assert all("embedding failed" in failed.reason for failed in indexed.failed_files)
    assert embeddings_server.requests <= 8  # three failed groups, each a couple of concurrent batches
    assert harness.index() == {}


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
