"""Writes cut short: a crash between two upsert batches, a rejected batch, a dense pass killed half-way.

The engine is always the real embedded store; only the interruption is simulated (a wrapper that
stops a write part-way, as a killed process or a server rejecting a later batch would).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from sextant.chunkstore import ChunkPoint, ChunkStore
from sextant.indexer import index_repository


class CrashSimulatedError(Exception):
    """The simulated crash."""


class CutsUpsertShort:
    """A real store whose ``fail_call``-th upsert writes only its first ``keep`` points, then raises."""

    def __init__(self, inner: ChunkStore, *, fail_call: int, keep: int) -> None:
        self.inner = inner
        self.fail_call = fail_call
        self.keep = keep
        self.calls = 0

    def upsert(self, points: Sequence[ChunkPoint]) -> None:
        self.calls += 1
        if self.calls == self.fail_call:
            self.inner.upsert(points[: self.keep])
            raise CrashSimulatedError(f"write stopped after {self.keep} of {len(points)} points")
        self.inner.upsert(points)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


class DiesAfterCalls:
    """An embedder that works for ``calls_allowed`` calls, then fails as a killed process would (no
    EmbeddingError: nothing in the pass may swallow it)."""

    def __init__(self, inner: Any, calls_allowed: int) -> None:
        self.inner = inner
        self.calls_allowed = calls_allowed

    async def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if self.calls_allowed <= 0:
            raise CrashSimulatedError("process killed mid-embedding")
        self.calls_allowed -= 1
        return await self.inner.embed(texts)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def commit_modules(repo: Any, **functions: int) -> None:
    """Commit ("seed") one module ``pkg/<name>.py`` per keyword, with that many small functions."""
    for name, count in functions.items():
        repo.write(f"pkg/{name}.py", "".join(f"def {name}_{n}(x):\n    return x + {n}\n\n\n" for n in range(count)))
    repo.commit("seed")


def ids_by_path(harness: Any) -> dict[str, frozenset[str]]:
    return {path: entry.point_ids for path, entry in harness.index().items()}


@pytest.mark.parametrize("retry_same_run", [True, False], ids=["retried-delivery", "next-run"])
async def test_a_file_cut_short_between_batches_is_rewritten_whole(
    build_harness: Any, hashing_embedder: Any, git_repo: Any, retry_same_run: bool
) -> None:
    commit_modules(git_repo, alpha=30, beta=5)
    reference = build_harness(hashing_embedder)
    await reference.run()
    expected = ids_by_path(reference)
    reference.deps.store.delete_paths(reference.ref.repo_key, list(expected))

    cut = CutsUpsertShort(reference.deps.store, fail_call=1, keep=11)
    crashing = build_harness(hashing_embedder, store=cut)
    request = crashing.request(run_id="run-interrupted")
    with pytest.raises(CrashSimulatedError):
        await index_repository(request, crashing.recency(request), crashing.deps)
    assert 0 < crashing.deps.store.count(crashing.ref.repo_key) < sum(len(ids) for ids in expected.values())

    healed = build_harness(hashing_embedder, store=reference.deps.store)
    again = healed.request(run_id="run-interrupted" if retry_same_run else "run-after")
    indexed = await index_repository(again, healed.recency(again), healed.deps)

    assert ids_by_path(healed) == expected  # every file whole, each point exactly once
    assert healed.deps.store.count(healed.ref.repo_key) == sum(len(ids) for ids in expected.values())
    # A retry of the crashed run still reports both files as added; a later run sees one it has to finish.
    assert (indexed.files_added, indexed.files_changed) == ((2, 0) if retry_same_run else (1, 1))
    assert indexed.chunks_upserted == sum(len(ids) for ids in expected.values())
    follow_up = await healed.run()
    assert (follow_up.files_unchanged, follow_up.chunks_upserted) == (2, 0)


async def test_a_later_batch_rejected_then_retried_heals_a_changed_file(
    build_harness: Any, hashing_embedder: Any, git_repo: Any
) -> None:
    commit_modules(git_repo, alpha=30)
    harness = build_harness(hashing_embedder)
    await harness.run()
    body = "".join(f"def alpha_{n}(x):\n    return -x + {n}\n\n\n" for n in range(24))
    git_repo.write("pkg/alpha.py", body)  # fewer, changed functions: a shorter version of the same file
    git_repo.commit("edit")

    rejecting = build_harness(hashing_embedder, store=CutsUpsertShort(harness.deps.store, fail_call=1, keep=7))
    request = rejecting.request(run_id="run-rejected")
    with pytest.raises(CrashSimulatedError):
        await index_repository(request, rejecting.recency(request), rejecting.deps)
    retried = await index_repository(request, harness.recency(request), harness.deps)

    payloads = harness.by_path()["pkg/alpha.py"]
    head_blob = git_repo.git("rev-parse", "HEAD:pkg/alpha.py").strip()
    assert {payload.blob_sha for payload in payloads} == {head_blob}
    assert len(payloads) == payloads[0].file_chunk_count
    assert all("return -x" in payload.text for payload in payloads if payload.symbol)
    assert (retried.files_changed, retried.files_unchanged) == (1, 0)


async def test_a_dense_pass_killed_half_way_is_finished_without_embedding_anything_twice(
    harness: Any, hashing_embedder: Any, git_repo: Any
) -> None:
    commit_modules(git_repo, alpha=40)
    indexed = await harness.run()
    total = indexed.chunks_upserted

    with pytest.raises(CrashSimulatedError):
        await harness.embed(indexed, embedder=DiesAfterCalls(hashing_embedder, calls_allowed=2))
    missing_after_crash = harness.deps.store.count_missing_dense(harness.ref.repo_key)
    assert 0 < missing_after_crash < total
    texts_before = len(hashing_embedder.texts)

    resumed = await harness.embed(indexed)

    assert (resumed.points_embedded, resumed.points_missing, resumed.complete) == (missing_after_crash, 0, True)
    assert len(hashing_embedder.texts) - texts_before == missing_after_crash  # only what was missing
    assert len(hashing_embedder.texts) == total  # across both passes, each point embedded once
