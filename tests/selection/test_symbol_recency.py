"""Symbol-level recency: within a file, the definitions whose own lines changed last are picked first."""

from __future__ import annotations

from sextant.chunkstore import ChunkPayload
from sextant.selection import MAX_CHUNKS_PER_FILE, select_from_payloads


def function(index: int, symbol_date: str | None) -> ChunkPayload:
    return ChunkPayload(
        repo_key="r", path="pkg/big.py", blob_sha="b" * 40, kind="code", language="python",
        symbol=f"f{index}", symbol_type="function", start_line=1 + 10 * index, end_line=9 + 10 * index,
        text=f"def f{index}():\n    pass\n", indexed_at="2026-06-01T00:00:00Z", last_modified_at="2026-06-01",
        symbol_last_modified_at=symbol_date,
    )  # fmt: skip


def test_newest_symbols_first_then_the_top_of_the_file() -> None:
    dates = [None, "2021-01-01", "2026-05-30", None, "2026-05-01T10:00:00+02:00", "2024-01-01", None, None]
    payloads = [function(index, date) for index, date in enumerate(dates)]
    limit = MAX_CHUNKS_PER_FILE + 1
    picked = [chunk.symbol for chunk in select_from_payloads(reversed(payloads), limit).chunks]
    # Past the per-file cap (one file), the next chunks come in the same order.
    assert picked == ["f2", "f4", "f5", "f1"]
    chosen = select_from_payloads(payloads, MAX_CHUNKS_PER_FILE).chunks
    assert [chunk.symbol_last_modified_at for chunk in chosen] == [
        "2026-05-30",
        "2026-05-01T10:00:00+02:00",
        "2024-01-01",
    ]


def test_without_symbol_dates_the_file_is_read_from_the_top() -> None:
    payloads = [function(index, None) for index in range(6)]
    picked = [chunk.symbol for chunk in select_from_payloads(reversed(payloads), MAX_CHUNKS_PER_FILE).chunks]
    assert picked == ["f0", "f1", "f2"]
