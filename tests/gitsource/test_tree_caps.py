"""A git bomb (one subtree referenced ten times per level) is streamed, capped, and fails clearly.

Memory is checked with tracemalloc's peak, never with time: the listing is read in chunks and
stops at the cap, so the peak stays far below what the whole listing would take.
"""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from types import SimpleNamespace

import pytest

from sextant.contracts import StageFailed
from sextant.gitsource import RepoMirror, RepoSource, TreeLimits, TreeTooLargeError, scan_recency
from sextant.gitsource.tree_stream import tree_records
from sextant.indexer.discovery import DiscoveryRules, discover_files

from ..support.odd_trees import make_bomb


@pytest.fixture(scope="module")
def bomb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_bomb(tmp_path_factory.mktemp("bomb"))


def _peak(action: object) -> tuple[BaseException | None, int]:
    tracemalloc.start()
    error: BaseException | None = None
    try:
        action()  # type: ignore[operator]
    except TreeTooLargeError as raised:
        error = raised
    finally:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    return error, peak


def test_listing_past_the_entry_cap_fails_with_flat_memory(bomb: Path, tmp_path: Path) -> None:
    source = RepoSource(str(bomb))
    mirror = RepoMirror(tmp_path / "cache", timeout=60)
    head = mirror.sync(source).head_sha
    limits = TreeLimits(max_entries=2_000)
    error, peak = _peak(lambda: discover_files(mirror.iter_tree(source, head, limits), DiscoveryRules()))
    assert isinstance(error, TreeTooLargeError)
    assert "INDEX_MAX_TREE_ENTRIES" in str(error)
    # 2,000 kept paths and one read chunk; the whole listing (100,000 entries) would be tens of MB.
    assert peak < 4 * 1024 * 1024, peak


def test_listing_past_the_byte_cap_fails(bomb: Path, tmp_path: Path) -> None:
    source = RepoSource(str(bomb))
    mirror = RepoMirror(tmp_path / "cache", timeout=60)
    head = mirror.sync(source).head_sha
    with pytest.raises(TreeTooLargeError, match="INDEX_MAX_TREE_BYTES"):
        mirror.list_tree(source, head, TreeLimits(max_bytes=300_000))


def test_filtered_entries_are_never_held(bomb: Path, tmp_path: Path) -> None:
    """Under the cap, memory follows the kept files, not the listing: excluded paths cost a count."""
    source = RepoSource(str(bomb))
    mirror = RepoMirror(tmp_path / "cache", timeout=60)
    head = mirror.sync(source).head_sha
    kept: list[str] = []

    def keep_under_d0() -> None:
        kept.extend(entry.path for entry in mirror.iter_tree(source, head) if entry.path.startswith("d0/d0/d0/"))

    error, peak = _peak(keep_under_d0)
    assert error is None
    assert len(kept) == 100
    assert peak < 2 * 1024 * 1024, peak


def test_recency_scan_is_capped_too(bomb: Path, tmp_path: Path) -> None:
    with pytest.raises(TreeTooLargeError):
        scan_recency(RepoSource(str(bomb)), limits=TreeLimits(max_entries=1_000))
    with pytest.raises(TreeTooLargeError):
        scan_recency(RepoSource(bomb.as_uri()), limits=TreeLimits(max_entries=1_000), work_dir=tmp_path)


def test_records_split_across_chunks() -> None:
    stream = [b"100644 blob a\tx", b".py\x00100644 blob b\ty.py\x00", b""]
    assert list(tree_records(stream, TreeLimits())) == [b"100644 blob a\tx.py", b"100644 blob b\ty.py"]


async def test_the_indexer_reports_a_stage_failure_and_stays_usable(bomb: Path, tmp_path: Path) -> None:
    from sextant.indexer.handlers import on_file_recency_computed

    from ..indexer.conftest import HashingTestEmbedder, IndexHarness, make_deps, open_store

    embedder = HashingTestEmbedder()
    store = open_store(tmp_path, embedder)
    rules = DiscoveryRules(tree_limits=TreeLimits(max_entries=1_000))
    harness = IndexHarness(SimpleNamespace(url=bomb.as_uri()), make_deps(tmp_path, embedder, store, rules), None)
    request = harness.request()
    [failed] = await on_file_recency_computed(harness.recency(request), harness.deps)
    assert isinstance(failed, StageFailed)
    assert "TreeTooLargeError" in failed.reason
    assert "INDEX_MAX_TREE_ENTRIES" in failed.reason
    store.close()
