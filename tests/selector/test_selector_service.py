"""The selector service over the real bus and the embedded store: ChunksIndexed → two ChunksSelected."""

from __future__ import annotations

import asyncio
from pathlib import Path

import msgspec

from sextant.bootstrap import bootstrap, host
from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.chunkstore import ChunkPayload, ChunkPoint, SparseVector, point_id
from sextant.chunkstore.edge_store import EdgeChunkStore
from sextant.contracts import ChunksIndexed, ChunksSelected, RepoRef
from sextant.selector import app as selector
from sextant.selector.config import SelectorSettings
from sextant.selector.handlers import on_chunks_indexed

from ..support.events import event

REPO = RepoRef.for_url("https://example.com/acme/shop.git")
DIMENSION = 8


def payload(path: str, start: int, date: str | None) -> ChunkPayload:
    kind = "doc" if path.endswith(".md") else "code"
    return ChunkPayload(
        repo_key=REPO.repo_key, path=path, blob_sha="b" * 40, kind=kind, language="python",
        symbol=f"sym{start}", symbol_type="function", start_line=start, end_line=start + 5,
        text=f"def sym{start}(): pass", indexed_at="2026-11-30T00:00:00Z", last_modified_at=date,
    )  # fmt: skip


def store_with(tmp_path: Path, payloads: list[ChunkPayload]) -> EdgeChunkStore:
    store = EdgeChunkStore(tmp_path / "qdrant", "test_chunks", DIMENSION)
    store.upsert(
        [
            ChunkPoint(
                id=point_id(p.repo_key, p.path, p.symbol, p.start_line, 0),
                dense=[1.0] + [0.0] * (DIMENSION - 1),
                sparse=SparseVector(indices=[1], values=[1.0]),
                payload=p,
            )
            for p in payloads
        ]
    )
    return store


def indexed_event() -> ChunksIndexed:
    return event(ChunksIndexed, REPO, "run-1", head_sha="abc", files_seen=60)


def many_payloads() -> list[ChunkPayload]:
    code = [payload(f"src/m{i}.py", line, f"2026-0{1 + i % 9}-01") for i in range(40) for line in (1, 10)]
    docs = [payload(f"docs/d{i}.md", 1, "2024-01-01") for i in range(30)]
    return [*code, *docs, payload("README.md", 1, "2026-05-01")]


async def test_handler_selects_for_analysis_and_summary(tmp_path: Path) -> None:
    store = store_with(tmp_path, many_payloads())
    analysis, summary = await on_chunks_indexed(indexed_event(), store, SelectorSettings())
    assert (analysis.purpose, analysis.limit, len(analysis.chunks)) == ("analysis", 80, 80)
    assert (summary.purpose, summary.limit, len(summary.chunks)) == ("summary", 40, 40)
    assert analysis.counts.picked_doc <= 16
    assert analysis.chunks[0].path == "README.md"
    assert analysis.median_code is not None
    assert analysis.run_id == "run-1"
    assert analysis.event_id != summary.event_id
    store.close()


async def test_selector_service_answers_chunks_indexed_on_the_bus(tmp_path: Path) -> None:
    store = store_with(tmp_path, many_payloads())
    with EmbeddedNats(tmp_path / "nats") as server:
        bus = Bus(build_broker(server.url))
        await start_routers(bus, [host(selector.SERVICE, bootstrap({}, store=store), {})])
        await bus.publish(indexed_event())
        selected: list[ChunksSelected] = []
        for _ in range(100):
            selected = [e async for _, e, _ in bus.read() if isinstance(e, ChunksSelected)]
            if len(selected) == 2:
                break
            await asyncio.sleep(0.1)
        await bus.close()
    assert sorted(e.purpose for e in selected) == ["analysis", "summary"]
    assert all(msgspec.json.encode(e) for e in selected)
    store.close()
