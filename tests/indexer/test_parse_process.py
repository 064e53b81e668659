"""Parsing and sparse encoding in the parse process: the same points as in the run's process, and a
worker that never outlives the indexer (its failures: test_parse_process_faults.py)."""

from __future__ import annotations

import dataclasses
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest

from sextant.chunkstore import ChunkPoint, ChunkStore
from sextant.indexer.config import IndexerSettings
from sextant.indexer.discovery import DiscoveryRules
from sextant.indexer.parse_process import SentChunk
from sextant.parsing import Chunk

from ..support.processes import is_gone
from .conftest import IndexHarness, make_deps, open_store

GIVE_UP_SECONDS = 60.0
"""How long a wait for something that must happen may take before the test fails (never a timing check)."""


class UpsertRecordingStore:
    """A real store that also keeps every point upserted into it, sparse vector included."""

    def __init__(self, inner: ChunkStore) -> None:
        self.inner = inner
        self.points: dict[str, ChunkPoint] = {}

    def upsert(self, points: Sequence[ChunkPoint]) -> None:
        self.inner.upsert(points)
        self.points.update((point.id, point) for point in points)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def varied_repository(repo: Any) -> None:
    """Files of every outcome: parsed code and docs, windowed symbols, blank, binary, not UTF-8, too large."""
    repo.write(
        "shop/orders.py",
        '"""Orders."""\n\n\nclass Orders:\n    """The orders."""\n\n    def place(self, order_id: int) -> str:\n'
        '        """Place one."""\n        return f"placed {order_id}"\n\n\n@cached\ndef cancel(order_id):\n'
        "    return order_id\n",
    )
    body = "".join(
        f"    value_{index} = compute_{index}(value_{index - 1})  # step {index}\n" for index in range(1, 60)
    )
    repo.write("shop/long_function.py", f"def long_function(value_0):\n{body}    return value_59\n")
    repo.write(
        "shop/total.go", "package shop\n\n// Total adds prices.\nfunc Total(prices []int) int {\n\treturn 0\n}\n"
    )
    repo.write("web/app.ts", "export class App {\n  start(): void {\n    console.log('up');\n  }\n}\n")
    repo.write("README.md", "# Shop\n\nHow to run the shop.\n\n## Usage\n\nCall `place`, see [docs](docs/x.md).\n")
    repo.write("docs/guide.rst", "Guide\n=====\n\nSome words about ``Orders.place``.\n")
    repo.write("config/settings.yaml", "shop:\n  currency: EUR\n  retries: 3\n")
    repo.write("notes.txt", "Plain text with unicode: café, naïve, 日本語.\n")
    repo.write("shop/empty.py", "")
    repo.write("shop/blob.py", b"\x00\x01\x02binary\x00")
    repo.write("shop/latin.py", "name = 'café'\n".encode("latin-1"))
    repo.write("shop/huge.py", "x = 1\n" * 2000)  # over the test's size cap


def index_both_ways(git_repo: Any, tmp_path: Path, hashing_embedder: Any) -> list[tuple[IndexHarness, Any]]:
    harnesses: list[tuple[IndexHarness, Any]] = []
    for in_process in (False, True):
        folder = tmp_path / ("in-process" if in_process else "parse-process")
        store = UpsertRecordingStore(open_store(folder, hashing_embedder))
        deps = make_deps(folder, hashing_embedder, store, DiscoveryRules(max_file_bytes=4000))  # type: ignore[arg-type]
        deps.settings = dataclasses.replace(deps.settings, parse_process="false" if in_process else "true")
        harnesses.append((IndexHarness(git_repo, deps), store))
    return harnesses


def comparable(point: ChunkPoint) -> bytes:
    """A point without what differs between two runs by design (their run id and time)."""
    payload = msgspec.structs.replace(point.payload, run_id="", indexed_at="")
    return msgspec.json.encode(msgspec.structs.replace(point, payload=payload))


async def test_the_parse_process_stores_the_points_parsing_in_process_stores(
    git_repo: Any, tmp_path: Path, hashing_embedder: Any
) -> None:
    varied_repository(git_repo)
    git_repo.commit("seed")
    (by_process, process_store), (in_process, local_store) = index_both_ways(git_repo, tmp_path, hashing_embedder)
    try:
        for change in range(2):
            if change:  # a second run: changed, blank-now and removed files next to unchanged ones
                git_repo.write("shop/orders.py", "def place(order_id):\n    return order_id\n")
                git_repo.write("README.md", "")
                git_repo.remove("web/app.ts")
                git_repo.commit("change")
            first = await by_process.run()
            second = await in_process.run()
            assert first.failed_files == second.failed_files
            assert first.skipped == second.skipped
            assert {key: getattr(first, key) for key in ("files_added", "files_changed", "files_deleted")} == {
                key: getattr(second, key) for key in ("files_added", "files_changed", "files_deleted")
            }
            assert first.chunks_upserted == second.chunks_upserted > 0
            written = sorted(map(comparable, process_store.points.values()))
            assert written == sorted(map(comparable, local_store.points.values()))
            stored = sorted((p.path, p.start_line, p.symbol, p.text) for p in by_process.payloads())
            assert stored == sorted((p.path, p.start_line, p.symbol, p.text) for p in in_process.payloads())
        # Every outcome was exercised: skipped content, a blank file, windows of one long symbol.
        reasons = {entry.reason for entry in first.skipped}
        assert {"binary", "not UTF-8 text", "too large"} <= reasons
        assert any(point.payload.window_count > 1 for point in process_store.points.values())
    finally:
        process_store.inner.close()
        local_store.inner.close()


def test_the_parse_process_ends_with_the_indexer_process_even_when_it_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "indexer.py"
    script.write_text(
        textwrap.dedent(
            """
            import pickle, sys, time
            from sextant.embedding import SparseEncoder
            from sextant.indexer.parse_process import BlobToParse, ParseRequest, shared_parse_process

            worker = shared_parse_process()
            files = [BlobToParse("a.py", b"def f():\\n    return 1\\n")]
            worker.submit(ParseRequest(files, 1 << 20, 2000, pickle.dumps(SparseEncoder()))).result()
            print(worker.pid, flush=True)
            time.sleep(600)
            """
        )
    )
    host = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    assert host.stdout is not None
    worker_pid = int(host.stdout.readline())
    assert not is_gone(worker_pid)
    host.send_signal(signal.SIGKILL)
    host.wait()
    wait_for(lambda: is_gone(worker_pid), "the parse process exits once its indexer is gone")


def wait_for(condition: Any, what: str) -> None:
    give_up = time.monotonic() + GIVE_UP_SECONDS
    while not condition():
        if time.monotonic() > give_up:
            pytest.fail(f"never happened: {what}")
        time.sleep(0.05)


def test_auto_parses_in_the_worker_only_without_the_history_fetch_beside_the_run(tmp_path: Path) -> None:
    def settings(value: str | None) -> IndexerSettings:
        env = {"SEXTANT_HOME": str(tmp_path)} | ({"INDEX_PARSE_PROCESS": value} if value is not None else {})
        return IndexerSettings.from_env(env)

    assert settings(None).parse_process == "auto"
    assert settings("AUTO").parses_in_worker(fetching_history=False)
    assert not settings("auto").parses_in_worker(fetching_history=True)
    assert settings("true").parses_in_worker(fetching_history=True)
    assert not settings("false").parses_in_worker(fetching_history=False)
    with pytest.raises(ValueError, match="INDEX_PARSE_PROCESS"):
        settings("sometimes")


@pytest.mark.parametrize(
    ("text", "dense_text"),
    [("return 1\n", "# shop/orders.py place\nreturn 1\n"), ("return 1\n", "# header only, text cut off")],
    ids=["header and text", "dense text of its own"],
)
def test_a_sent_chunk_gives_back_every_field_the_run_reads(text: str, dense_text: str) -> None:
    chunk = Chunk(
        path="shop/orders.py",
        kind="code",
        name="place",
        symbol_type="function",
        language="python",
        parent="Orders",
        package="shop",
        signature="def place(order_id):",
        docstring="Place one.",
        annotations=("@cached",),
        start_line=3,
        end_line=4,
        symbol_start_line=2,
        symbol_end_line=9,
        source="def place(order_id):\n    return 1\n",
        window=1,
        window_count=2,
        text=text,
        dense_text=dense_text,
        sparse_text="place order_id return",
    )
    sent = msgspec.msgpack.decode(msgspec.msgpack.encode(SentChunk.of(chunk)), type=SentChunk)

    # What the worker already used (the sparse text) and what nothing stores (the symbol's source) stay behind.
    assert sent.chunk() == msgspec.structs.replace(chunk, source="", sparse_text="")
