"""Unchanged files get the recency scan's last_modified_at in place: no fetch, no parse, no embedding."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec
import pytest

from sextant.chunkstore import FileEntry
from sextant.contracts import FileRecencyComputed, RecencyStatus, RepoRef, RepoUpdated
from sextant.gitsource.recency import incremental_recency
from sextant.indexer.recency_stamp import RecencyStamp
from sextant.indexer.restamp import restamps_for_unchanged

ScanRecency = Callable[[], dict[str, str | None]]

SEEDED = "2025-06-01T09:00:00+00:00"
EDITED = "2025-07-01T09:00:00+00:00"
REVERTED = "2025-08-01T09:00:00+00:00"


def seed(repo: Any) -> None:
    repo.write("shop/orders.py", "def place_order(order_id):\n    return order_id\n")
    repo.write("shop/total.go", "package shop\n\n// Total adds.\nfunc Total(a, b int) int {\n\treturn a + b\n}\n")
    repo.write("README.md", "# Shop\n\nHow to run the shop.\n")
    repo.commit("seed", date=SEEDED)


def stamps_by_path(harness: Any) -> dict[str, set[Any]]:
    return {path: {p.last_modified_at for p in points} for path, points in harness.by_path().items()}


async def test_turning_recency_on_stamps_unchanged_files_without_embedding(
    harness: Any, git_repo: Any, scan_recency: ScanRecency
) -> None:
    seed(git_repo)
    first = await harness.run(status="skipped")
    assert {stamp for stamps in stamps_by_path(harness).values() for stamp in stamps} == {msgspec.UNSET}
    ids_before = {path: entry.point_ids for path, entry in harness.index().items()}
    embedded_before = len(harness.deps.embedder.texts)

    dates = scan_recency()
    indexed = await harness.run(status="computed", dates=dates)

    assert set(dates.values()) == {SEEDED}
    assert stamps_by_path(harness) == {path: {SEEDED} for path in ids_before}
    assert (indexed.files_unchanged, indexed.files_changed, indexed.files_added) == (3, 0, 0)
    assert (indexed.embedding_calls, indexed.chunks_upserted, indexed.chunks_deleted) == (0, 0, 0)
    assert len(harness.deps.embedder.texts) == embedded_before
    assert {path: entry.point_ids for path, entry in harness.index().items()} == ids_before
    assert harness.deps.store.count(harness.ref.repo_key) == first.chunks_upserted
    assert harness.progress[-1].files_restamped == 3
    assert indexed.files_restamped == 3

    await harness.run(status="computed", dates=dates)
    assert harness.progress[-1].files_restamped == 0  # already in line: no write at all


async def test_reverted_file_gets_its_new_commit_date_without_reembedding(
    harness: Any, git_repo: Any, scan_recency: ScanRecency
) -> None:
    seed(git_repo)
    await harness.run(status="computed", dates=scan_recency())
    original = (git_repo.root / "shop/orders.py").read_text()
    git_repo.write("shop/orders.py", original + "\n\ndef audit():\n    return 0\n")
    git_repo.commit("edit", date=EDITED)
    git_repo.write("shop/orders.py", original)
    git_repo.commit("revert", date=REVERTED)  # identical content again: the stored blob SHA matches
    embedded_before = len(harness.deps.embedder.texts)

    indexed = await harness.run(status="computed", dates=scan_recency())

    assert (indexed.files_unchanged, indexed.files_changed, indexed.embedding_calls) == (3, 0, 0)
    assert len(harness.deps.embedder.texts) == embedded_before
    assert stamps_by_path(harness) == {
        "shop/orders.py": {REVERTED},
        "shop/total.go": {SEEDED},
        "README.md": {SEEDED},
    }
    assert harness.progress[-1].files_restamped == 1


async def test_failed_or_skipped_scan_leaves_stored_dates_alone(
    harness: Any, git_repo: Any, scan_recency: ScanRecency
) -> None:
    seed(git_repo)
    await harness.run(status="computed", dates=scan_recency())
    git_repo.write("shop/total.go", "package shop\n\nfunc Total() int {\n\treturn 0\n}\n")
    git_repo.commit("edit", date=EDITED)

    failed = await harness.run(status="failed")

    assert failed.files_changed == 1
    assert stamps_by_path(harness) == {
        "shop/total.go": {None},  # written this run: age unknown, never "now"
        "shop/orders.py": {SEEDED},  # unchanged: the failed scan knows nothing better
        "README.md": {SEEDED},
    }
    assert harness.progress[-1].files_restamped == 0

    await harness.run(status="skipped")
    assert stamps_by_path(harness)["shop/orders.py"] == {SEEDED}  # feature off never erases dates
    assert harness.progress[-1].files_restamped == 0

    await harness.run(status="computed", dates=scan_recency())
    assert stamps_by_path(harness)["shop/total.go"] == {EDITED}  # the next good scan heals the null


async def test_incremental_run_restamps_only_its_paths(harness: Any, git_repo: Any) -> None:
    seed(git_repo)
    await harness.run(status="skipped")
    request_fields: dict[str, Any] = {"changed_paths": ["shop/orders.py"], "head_commit_date": REVERTED}

    dates = incremental_recency(["shop/orders.py"], REVERTED)
    assert dates["shop/orders.py"] is not None
    indexed = await harness.run(status="computed", dates=dates, **request_fields)

    assert (indexed.files_seen, indexed.files_unchanged, indexed.embedding_calls) == (1, 1, 0)
    assert stamps_by_path(harness) == {
        "shop/orders.py": {dates["shop/orders.py"]},
        "shop/total.go": {msgspec.UNSET},
        "README.md": {msgspec.UNSET},
    }


def _stamp(status: RecencyStatus, dates: dict[str, str | None] | None = None) -> RecencyStamp:
    ref = RepoRef.for_url("file:///tmp/repo", branch="main")
    request = RepoUpdated(event_id="e", run_id="r", occurred_at="2026-01-01T00:00:00Z", repo=ref)
    recency = FileRecencyComputed(
        event_id="f", run_id="r", occurred_at="2026-01-01T00:00:00Z", repo=ref, request=request, status=status
    )
    return RecencyStamp(msgspec.structs.replace(recency, dates=dates))


def _entry(stamp: str | msgspec.UnsetType | None = msgspec.UNSET, *, mixed: bool = False) -> FileEntry:
    return FileEntry(blob_sha="1" * 40, point_ids=frozenset({"p"}), last_modified_at=stamp, last_modified_mixed=mixed)


@pytest.mark.parametrize("status", ["skipped", "failed"])
def test_a_scan_without_dates_restamps_nothing(status: RecencyStatus) -> None:
    stored = {"a.py": _entry(), "b.py": _entry("2025-01-01"), "c.py": _entry(mixed=True)}

    assert restamps_for_unchanged(stored, stored, _stamp(status)) == {}


def test_a_computed_scan_restamps_exactly_the_differences() -> None:
    dates: dict[str, str | None] = {
        "absent.py": "2025-01-01",
        "same.py": "2025-01-01",
        "moved.py": "2025-02-02",
        "null.py": "2025-01-01",
        "mixed.py": "2025-01-01",
        "too_old.py": None,
    }
    stored = {
        "absent.py": _entry(),
        "same.py": _entry("2025-01-01"),
        "moved.py": _entry("2025-01-01"),
        "null.py": _entry(None),
        "mixed.py": _entry(mixed=True),
        "too_old.py": _entry("2019-01-01"),
        "missing_from_map.py": _entry("2019-01-01"),
        "already_unknown.py": _entry(None),
    }

    restamps = restamps_for_unchanged([*stored, "empty_never_stored.py"], stored, _stamp("computed", dates))

    assert restamps == {
        "absent.py": "2025-01-01",
        "moved.py": "2025-02-02",
        "null.py": "2025-01-01",
        "mixed.py": "2025-01-01",
        "too_old.py": None,
        "missing_from_map.py": None,  # map-absent = older than the scan window
    }
