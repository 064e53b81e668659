"""Changed blobs read slice by slice, the next slice while this one is parsed: the same points as one read,
in the run's process and in the parse process, and a read that fails mid-run loses nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from sextant.gitsource.access import RepoSource
from sextant.gitsource.mirror import RepoMirror
from sextant.indexer import pipeline
from sextant.indexer.pipeline import read_slices

from .conftest import IndexHarness, make_deps, open_store
from .test_parse_process import UpsertRecordingStore, comparable, varied_repository


class CountingMirror(RepoMirror):
    """A real mirror that records how many blobs each read asks for, and can fail one read."""

    def __init__(self, path: Path, fail_read: int | None = None) -> None:
        super().__init__(path, timeout=60)
        self.reads: list[int] = []
        self.fail_read = fail_read

    def read_blobs(self, source: RepoSource, shas: Iterable[str], max_bytes: int) -> dict[str, bytes | None]:
        wanted = list(shas)
        self.reads.append(len(wanted))
        if self.fail_read is not None and len(self.reads) == self.fail_read:
            raise OSError("the mirror's disk went away")
        return super().read_blobs(source, wanted, max_bytes)


def test_read_slices_start_small_and_double_up_to_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    assert read_slices(0) == []
    assert read_slices(10) == [(0, 10)]
    assert read_slices(775) == [(0, 64), (64, 192), (192, 448), (448, 775)]
    monkeypatch.setattr(pipeline, "READ_SLICE_FILES", 100)
    bounds = read_slices(1000)
    assert bounds[:3] == [(0, 64), (64, 164), (164, 264)]
    assert bounds[-1] == (964, 1000)
    assert [start for start, _ in bounds[1:]] == [end for _, end in bounds[:-1]]  # no file left out or read twice


def harness(git_repo: Any, folder: Path, embedder: Any, *, worker: bool, fail_read: int | None = None) -> Any:
    store = UpsertRecordingStore(open_store(folder, embedder))
    deps = make_deps(folder, embedder, store)  # type: ignore[arg-type]
    deps.mirrors = CountingMirror(folder / "mirrors", fail_read)
    deps.settings = dataclasses.replace(deps.settings, parse_process="true" if worker else "false")
    return IndexHarness(git_repo, deps), store


def many_files(git_repo: Any) -> None:
    varied_repository(git_repo)
    for number in range(12):
        git_repo.write(f"pkg/module_{number}.py", f"def function_{number}(value):\n    return value + {number}\n")


@pytest.mark.parametrize("worker", [False, True], ids=["in-process", "parse-process"])
async def test_many_small_reads_store_what_one_read_stores(
    git_repo: Any, tmp_path: Path, hashing_embedder: Any, monkeypatch: pytest.MonkeyPatch, worker: bool
) -> None:
    many_files(git_repo)
    git_repo.commit("seed")
    whole, whole_store = harness(git_repo, tmp_path / "one-read", hashing_embedder, worker=worker)
    sliced, sliced_store = harness(git_repo, tmp_path / "sliced", hashing_embedder, worker=worker)
    try:
        first = await whole.run()
        monkeypatch.setattr(pipeline, "FIRST_READ_FILES", 1)
        monkeypatch.setattr(pipeline, "READ_SLICE_FILES", 4)
        monkeypatch.setattr(pipeline, "PARSE_SLICE_FILES", 2)
        second = await sliced.run()
        assert len(whole.deps.mirrors.reads) == 1
        assert sliced.deps.mirrors.reads[:3] == [1, 2, 4]
        assert set(sliced.deps.mirrors.reads[3:]) <= {1, 2, 3, 4}
        assert sum(sliced.deps.mirrors.reads) == sum(whole.deps.mirrors.reads)
        assert (first.files_added, first.chunks_upserted, first.skipped) == (
            second.files_added,
            second.chunks_upserted,
            second.skipped,
        )
        assert sorted(map(comparable, whole_store.points.values())) == sorted(
            map(comparable, sliced_store.points.values())
        )
    finally:
        whole_store.inner.close()
        sliced_store.inner.close()


@pytest.mark.parametrize("worker", [False, True], ids=["in-process", "parse-process"])
async def test_a_read_failing_mid_run_fails_it_and_the_next_run_finishes(
    git_repo: Any, tmp_path: Path, hashing_embedder: Any, monkeypatch: pytest.MonkeyPatch, worker: bool
) -> None:
    many_files(git_repo)
    git_repo.commit("seed")
    monkeypatch.setattr(pipeline, "FIRST_READ_FILES", 2)
    monkeypatch.setattr(pipeline, "READ_SLICE_FILES", 4)
    monkeypatch.setattr(pipeline, "PARSE_SLICE_FILES", 2)
    run, store = harness(git_repo, tmp_path / "store", hashing_embedder, worker=worker, fail_read=3)
    try:
        with pytest.raises(OSError, match="disk went away"):
            await run.run()
        assert len(run.deps.mirrors.reads) == 3  # the third read failed the run, and no read came after it
        run.deps.mirrors.fail_read = None
        again = await run.run()
        reference, reference_store = harness(git_repo, tmp_path / "reference", hashing_embedder, worker=worker)
        try:
            clean = await reference.run()
            # The retry counts as a new run: it adds what the failed one had not, and nothing twice.
            assert again.files_added + again.files_unchanged - clean.files_unchanged == clean.files_added
            assert sorted((p.path, p.start_line, p.text) for p in run.payloads()) == sorted(
                (p.path, p.start_line, p.text) for p in reference.payloads()
            )
        finally:
            reference_store.inner.close()
    finally:
        store.inner.close()
