"""The index pipeline on real repositories and the real embedded store (bookkeeping: hashing embedder)."""

from __future__ import annotations

from typing import Any

import msgspec

from sextant.chunkstore import point_id
from sextant.indexer.discovery import DiscoveryRules

PY_V1 = '''"""Orders."""


def place_order(order_id: int) -> str:
    """Place an order."""
    return f"placed {order_id}"


def cancel_order(order_id: int) -> str:
    """Cancel an order."""
    return f"cancelled {order_id}"
'''

GO = """package shop

// Total adds prices.
func Total(prices []int) int {
\tsum := 0
\tfor _, p := range prices {
\t\tsum += p
\t}
\treturn sum
}
"""

README = """# Shop

How to run the shop.

## Usage

Call place_order.
"""


def seed(repo: Any) -> str:
    repo.write("shop/orders.py", PY_V1)
    repo.write("shop/total.go", GO)
    repo.write("README.md", README)
    return str(repo.commit("seed"))


async def test_first_index_writes_every_file(harness: Any, git_repo: Any) -> None:
    head = seed(git_repo)
    indexed = await harness.run()
    assert indexed.head_sha == head
    assert (indexed.files_seen, indexed.files_added, indexed.files_changed) == (3, 3, 0)
    assert indexed.failed_files == []
    assert indexed.embedding_calls == 0  # dense vectors come after ChunksIndexed
    assert indexed.points_total == indexed.points_missing_dense == indexed.chunks_upserted
    assert indexed.collection == harness.deps.store.collection
    by_path = harness.by_path()
    assert set(by_path) == {"shop/orders.py", "shop/total.go", "README.md"}
    assert indexed.chunks_upserted == sum(len(points) for points in by_path.values())
    assert harness.deps.store.count(harness.ref.repo_key) == indexed.chunks_upserted
    assert {p.kind for p in by_path["README.md"]} == {"doc"}
    assert {p.kind for p in by_path["shop/orders.py"]} == {"code"}
    symbols = {p.symbol for p in by_path["shop/orders.py"]}
    assert {"place_order", "cancel_order"} <= symbols
    blob = git_repo.git("rev-parse", "HEAD:shop/orders.py").strip()
    assert {p.blob_sha for p in by_path["shop/orders.py"]} == {blob}
    assert harness.progress[-1].phase == "done"
    assert harness.progress[-1].files_done == 3
    embedded = await harness.embed(indexed)
    assert (embedded.points_embedded, embedded.points_total) == (indexed.chunks_upserted, indexed.chunks_upserted)
    assert (embedded.points_missing, embedded.complete, embedded.reason) == (0, True, None)
    assert embedded.embedding_calls > 0
    assert harness.deps.store.count_missing_dense(harness.ref.repo_key) == 0
    assert harness.dense_progress[-1].finished
    assert (harness.dense_progress[-1].done, harness.dense_progress[-1].total) == (embedded.points_total,) * 2


async def test_reindex_without_change_embeds_nothing(harness: Any, git_repo: Any) -> None:
    seed(git_repo)
    first, _ = await harness.run_and_embed()
    embedded_before = len(harness.deps.embedder.texts)
    again, dense_again = await harness.run_and_embed()
    assert (again.files_unchanged, again.files_changed, again.files_added) == (3, 0, 0)
    assert (again.embedding_calls, again.chunks_upserted, again.chunks_deleted) == (0, 0, 0)
    assert (dense_again.embedding_calls, dense_again.points_embedded, dense_again.complete) == (0, 0, True)
    assert len(harness.deps.embedder.texts) == embedded_before
    assert harness.deps.store.count(harness.ref.repo_key) == first.chunks_upserted


async def test_force_reembeds_everything_without_duplicates(harness: Any, git_repo: Any) -> None:
    seed(git_repo)
    first = await harness.run()
    forced = await harness.run(force=True)
    assert forced.files_changed == 3
    assert forced.chunks_upserted == first.chunks_upserted
    assert harness.deps.store.count(harness.ref.repo_key) == first.chunks_upserted


async def test_edited_file_is_replaced_with_no_gap(
    build_harness: Any, recording_store: Any, hashing_embedder: Any, tmp_path: Any, git_repo: Any
) -> None:
    seed(git_repo)
    first = build_harness(hashing_embedder)
    await first.run_and_embed()
    # Same store, now wrapped to record the order of writes and watch the edited file.
    store = recording_store(first.deps.store, first.ref.repo_key, watched=["shop/orders.py"])
    harness = build_harness(hashing_embedder, store=store)
    old_ids = harness.index()["shop/orders.py"].point_ids
    edited = PY_V1.replace("cancel_order", "refund_order").replace("Place an order.", "Place one order now.")
    git_repo.write("shop/orders.py", edited)
    git_repo.commit("edit")
    embedded_before = len(hashing_embedder.texts)
    indexed = await harness.run()
    assert (indexed.files_changed, indexed.files_unchanged, indexed.files_added) == (1, 2, 0)
    operations = [operation for operation, _ in store.log]
    assert operations == ["upsert", "delete_points"]  # the old points go only after the new ones are written
    assert all(state["shop/orders.py"] for state in store.presence)
    await harness.embed(indexed)
    new_texts = hashing_embedder.texts[embedded_before:]
    assert new_texts
    assert all("shop/orders.py" in text for text in new_texts)  # only that file was re-embedded
    payloads = harness.by_path()["shop/orders.py"]
    assert "cancel_order" not in {p.symbol for p in payloads}
    assert "refund_order" in {p.symbol for p in payloads}
    new_ids = harness.index()["shop/orders.py"].point_ids
    assert old_ids - new_ids  # replaced points are gone
    assert indexed.chunks_deleted == len(old_ids - new_ids)


async def test_rename_and_delete_remove_old_points(harness: Any, git_repo: Any) -> None:
    seed(git_repo)
    await harness.run()
    git_repo.move("README.md", "docs/README.md")
    git_repo.remove("shop/total.go")
    git_repo.commit("move and delete")
    indexed = await harness.run()
    assert (indexed.files_added, indexed.files_deleted, indexed.files_unchanged) == (1, 2, 1)
    paths = set(harness.by_path())
    assert paths == {"docs/README.md", "shop/orders.py"}
    assert indexed.chunks_deleted > 0


async def test_oversized_symbol_becomes_windows_without_loss(harness: Any, git_repo: Any) -> None:
    body = "\n".join(f"    total += compute_step_{i}(value, {i})" for i in range(120))
    source = f"def giant(value):\n    total = 0\n{body}\n    return total\n"
    git_repo.write("giant.py", source)
    git_repo.commit("giant")
    indexed = await harness.run()
    assert indexed.failed_files == []
    windows = sorted((p for p in harness.payloads() if p.symbol == "giant"), key=lambda p: p.window)
    assert len(windows) > 1
    assert {p.window_count for p in windows} == {len(windows)}
    assert [p.window for p in windows] == list(range(len(windows)))
    ids = {point_id(harness.ref.repo_key, "giant.py", "giant", 1, p.window) for p in windows}
    assert ids <= harness.index()["giant.py"].point_ids
    covered = "\n".join(p.text for p in windows)
    for i in range(120):
        assert f"compute_step_{i}(value, {i})" in covered


async def test_binary_and_huge_files_are_reported_not_indexed(
    build_harness: Any, hashing_embedder: Any, git_repo: Any
) -> None:
    harness = build_harness(hashing_embedder, rules=DiscoveryRules(max_file_bytes=4000))
    git_repo.write("notes.txt", b"header\x00\x01\x02binary")
    git_repo.write("latin.txt", "caf\xe9".encode("latin-1"))
    git_repo.write("big.py", "x = 1\n" * 2000)
    git_repo.write("ok.py", "def fine():\n    return 1\n")
    git_repo.commit("mixed")
    indexed = await harness.run()
    # The tree's content, not a failure of the run: reported once, in skipped with its reason.
    assert indexed.failed_files == []
    skipped = {group.reason: group.paths for group in indexed.skipped}
    assert skipped == {"binary": ["notes.txt"], "not UTF-8 text": ["latin.txt"], "too large": ["big.py"]}
    assert set(harness.by_path()) == {"ok.py"}
    again = await harness.run()
    assert again.failed_files == []
    assert {group.reason: group.paths for group in again.skipped} == skipped
    assert (again.embedding_calls, again.files_changed, again.files_added) == (0, 0, 0)


async def test_a_whitespace_only_file_is_not_added_again_on_a_re_run(harness: Any, git_repo: Any) -> None:
    seed(git_repo)
    git_repo.write("shop/__init__.py", "\n  \n\t\n")  # blank, but not the empty blob the plan knows
    git_repo.commit("blank package file")

    first = await harness.run()
    again = await harness.run()

    assert (first.files_added, first.files_unchanged) == (3, 1)  # nothing to index, as an empty file
    assert "shop/__init__.py" not in harness.by_path()
    assert (again.files_added, again.files_changed, again.files_unchanged) == (0, 0, 4)
    git_repo.write("shop/total.go", "\n\n")
    git_repo.commit("blank the go file")
    blanked = await harness.run()
    assert (blanked.files_added, blanked.files_changed, blanked.files_unchanged) == (0, 1, 3)  # its points went
    assert "shop/total.go" not in harness.by_path()


async def test_odd_paths_are_indexed_exactly(harness: Any, git_repo: Any) -> None:
    odd = ["dir with space/file name.py", "ünïcødé/模块.py", 'quotes/it\'s "quoted".py', "tabs/a\tb.md"]
    for number, path in enumerate(odd):
        git_repo.write(path, f"def function_{number}():\n    return {number}\n")
    git_repo.commit("odd")
    indexed = await harness.run()
    assert indexed.failed_files == []
    assert set(harness.by_path()) == set(odd)
    git_repo.remove(odd[1])
    git_repo.commit("remove unicode")
    again = await harness.run()
    assert again.files_deleted == 1
    assert set(harness.by_path()) == set(odd) - {odd[1]}


async def test_redelivered_event_changes_nothing_twice(harness: Any, git_repo: Any) -> None:
    from sextant.indexer import index_repository

    seed(git_repo)
    request = harness.request(run_id="run-redelivered")
    recency = harness.recency(request)
    first = await index_repository(request, recency, harness.deps)
    ids_after_first = harness.index()
    second = await index_repository(request, recency, harness.deps)
    assert second.event_id == first.event_id  # JetStream de-duplicates the republished fact
    assert harness.index() == ids_after_first
    count = harness.deps.store.count(harness.ref.repo_key)
    assert count == first.chunks_upserted
    assert count == sum(len(entry.point_ids) for entry in ids_after_first.values())
    # The retry reports what the run did across attempts, not "3 unchanged, 0 written".
    counts = ("files_added", "files_changed", "files_unchanged", "chunks_upserted", "chunks_deleted")
    assert {name: getattr(second, name) for name in counts} == {name: getattr(first, name) for name in counts}
    assert (second.files_added, second.files_unchanged) == (3, 0)


async def test_recency_skipped_failed_and_computed(harness: Any, git_repo: Any) -> None:
    seed(git_repo)
    await harness.run(status="skipped")
    for payload in harness.payloads():
        assert payload.last_modified_at is msgspec.UNSET
        assert b"last_modified_at" not in msgspec.json.encode(payload)

    await harness.run(status="failed", force=True)
    assert {payload.last_modified_at for payload in harness.payloads()} == {None}

    dates = {"shop/orders.py": "2026-01-01T12:00:00Z", "README.md": None}  # total.go missing from the map
    indexed = await harness.run(status="computed", dates=dates, force=True)
    assert indexed.recency_status == "computed"
    stamped = {path: {p.last_modified_at for p in points} for path, points in harness.by_path().items()}
    assert stamped == {
        "shop/orders.py": {"2026-01-01T12:00:00Z"},
        "README.md": {None},
        "shop/total.go": {None},
    }


async def test_incremental_run_touches_only_its_paths(harness: Any, git_repo: Any) -> None:
    seed(git_repo)
    await harness.run()
    git_repo.write("shop/orders.py", PY_V1 + "\n\ndef audit():\n    return 0\n")
    git_repo.write("shop/total.go", GO.replace("sum := 0", "sum := 1"))
    git_repo.remove("README.md")
    git_repo.commit("push")
    indexed = await harness.run(
        changed_paths=["shop/orders.py"], removed_paths=["README.md"], head_commit_date="2026-02-01T00:00:00Z"
    )
    assert (indexed.files_seen, indexed.files_changed, indexed.files_deleted) == (1, 1, 1)
    by_path = harness.by_path()
    assert "audit" in {p.symbol for p in by_path["shop/orders.py"]}
    assert "README.md" not in by_path
    stale_go = harness.index()["shop/total.go"].blob_sha
    assert stale_go != git_repo.git("rev-parse", "HEAD:shop/total.go").strip()  # not in this push's scope


async def test_filters_exclude_vendored_lock_and_outside_root(
    build_harness: Any, hashing_embedder: Any, git_repo: Any
) -> None:
    harness = build_harness(hashing_embedder, rules=DiscoveryRules(root="src"))
    git_repo.write("src/app.py", "def app():\n    return 1\n")
    git_repo.write("src/node_modules/lib/index.js", "function lib() { return 1 }\n")
    git_repo.write("src/package-lock.json", "{}\n")
    git_repo.write("src/image.png", b"\x89PNG\r\n")
    git_repo.write("tools/build.py", "def build():\n    return 1\n")
    git_repo.commit("layout")
    indexed = await harness.run()
    assert set(harness.by_path()) == {"src/app.py"}
    assert indexed.files_seen == 1


async def test_emptied_file_loses_its_points(harness: Any, git_repo: Any) -> None:
    seed(git_repo)
    git_repo.write("shop/__init__.py", "")
    git_repo.commit("seed package")
    first = await harness.run()
    assert first.files_unchanged == 1  # the empty file: nothing to index, nothing read
    git_repo.write("shop/total.go", "")
    git_repo.commit("empty it")
    indexed = await harness.run()
    assert indexed.files_changed == 1
    assert "shop/total.go" not in harness.by_path()
    assert (await harness.run()).files_unchanged == 4
