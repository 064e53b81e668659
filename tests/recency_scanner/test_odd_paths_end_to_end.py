"""Paths git allows but text does not like travel the whole way: discovery → index → recency event.

The repository holds a file name that is not UTF-8, one with a newline, one with a backslash, and a
hand-made tree entry named ``..``. Each must be listed, indexed with its recency date, encoded in
every event, tokenized, and shown in its exact (escaped) text form; nothing fails the run.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
from tokenizers import Tokenizer

from sextant.contracts import decode_event, encode_event
from sextant.embedding.minilm_model import default_tokenizer_path
from sextant.gitsource import path_bytes
from sextant.indexer.discovery import DiscoveryRules
from sextant.parsing import build_chunks
from sextant.recency_scanner.config import RecencySettings
from sextant.recency_scanner.handlers import on_repo_updated

from ..conftest import GitRepo
from ..indexer.conftest import HashingTestEmbedder, IndexHarness, make_deps, open_store
from ..support.odd_trees import DOTDOT, ODD
from ..support.odd_trees import commit_with_dotdot_entry as _commit_with_dotdot_entry


async def test_odd_paths_go_through_discovery_index_and_recency(git_repo: GitRepo, tmp_path: Path) -> None:
    for raw in ODD:
        target = git_repo.root / Path(raw.decode("utf-8", "surrogateescape"))
        target.write_bytes(b"def function():\n    return 1\n")
    git_repo.commit("odd names", date="2026-02-02T02:02:02+00:00")
    _commit_with_dotdot_entry(git_repo)

    # The recency event: every key is the text form, and the event encodes (it hung the run before).
    embedder = HashingTestEmbedder()
    store = open_store(tmp_path, embedder)
    harness_request = IndexHarness(git_repo, make_deps(tmp_path, embedder, store))
    request = harness_request.request()
    [recency] = await on_repo_updated(request, RecencySettings(enabled=True))
    assert recency.status == "computed", recency.reason
    expected = {*ODD.values(), DOTDOT}
    assert set(recency.dates or {}) == expected
    assert decode_event(encode_event(recency)) == recency

    # The index: every file stored under its text form, stamped with its date, none failed.
    from sextant.indexer import index_repository

    indexed = await index_repository(request, recency, harness_request.deps)
    assert indexed.failed_files == []
    assert indexed.files_added == len(expected)
    by_path = harness_request.by_path()
    assert set(by_path) == expected
    assert all(payload.last_modified_at for payloads in by_path.values() for payload in payloads)
    assert decode_event(encode_event(indexed)) == indexed
    assert {path_bytes(path) for path in by_path} == {*ODD, DOTDOT.encode()}

    # What the models read: the dense texts tokenize, and no path puts a raw newline in them.
    tokenizer = Tokenizer.from_file(str(default_tokenizer_path()))
    for shown in expected:
        chunks = build_chunks(shown, "def function():\n    return 1\n", max_chars=1000)
        assert tokenizer.encode_batch([chunk.dense_text for chunk in chunks])
        assert all("new\nline" not in chunk.dense_text for chunk in chunks)
    store.close()


def test_rules_see_the_text_form() -> None:
    rules = DiscoveryRules()
    assert rules.wants_path("new\\nline.py")
    assert msgspec.json.encode({"path": "caf\\xe9.py"})


async def test_an_incremental_push_naming_an_odd_path_reindexes_it(git_repo: GitRepo, tmp_path: Path) -> None:
    from sextant.indexer import index_repository

    (git_repo.root / "new\nline.py").write_text("x = 1\n")
    git_repo.commit("one")
    embedder = HashingTestEmbedder()
    store = open_store(tmp_path, embedder)
    harness = IndexHarness(git_repo, make_deps(tmp_path, embedder, store))
    first = harness.request()
    await index_repository(first, harness.recency(first), harness.deps)
    (git_repo.root / "new\nline.py").write_text("x = 2\n")
    git_repo.commit("two")
    # A webhook names the path as Python text, raw newline included.
    push = harness.request(changed_paths=["new\nline.py"], head_commit_date="2026-04-04T00:00:00Z")
    [recency] = await on_repo_updated(push, RecencySettings(enabled=True))
    assert recency.dates == {"new\\nline.py": "2026-04-04T00:00:00+00:00"}
    indexed = await index_repository(push, recency, harness.deps)
    assert (indexed.files_changed, indexed.failed_files) == (1, [])
    assert decode_event(encode_event(recency)) == recency
    store.close()
