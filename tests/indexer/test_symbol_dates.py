"""Symbol dates: blame for a repository read in place, carried forward by text on a mirror without history."""

from __future__ import annotations

import dataclasses
from typing import Any

from sextant.chunkstore import ChunkPayload
from sextant.indexer.symbol_dates import parse_porcelain

OLD = "2024-01-10T09:00:00+00:00"
NEW = "2025-06-20T15:00:00+00:00"
NEWER = "2026-02-01T08:00:00+00:00"
FIRST = "def first(x):\n    return x + 1\n"
SECOND = "def second(x):\n    return x * 2\n"


def by_symbol(harness: Any) -> dict[str | None, ChunkPayload]:
    return {payload.symbol: payload for payload in harness.by_path()["pkg/mod.py"]}


def two_commits(repo: Any) -> None:
    repo.write("pkg/mod.py", FIRST)
    repo.commit("first", date=OLD)
    repo.write("pkg/mod.py", FIRST + "\n\n" + SECOND)
    repo.commit("second", date=NEW)


async def test_a_repository_read_in_place_dates_each_symbol_by_its_own_lines(
    build_harness: Any, hashing_embedder: Any, git_repo: Any
) -> None:
    two_commits(git_repo)
    harness = build_harness(hashing_embedder, url=str(git_repo.root))
    harness.deps.settings = dataclasses.replace(harness.deps.settings, allow_local_repos=True)

    await harness.run(status="computed", dates={"pkg/mod.py": NEW})

    symbols = by_symbol(harness)
    assert symbols["first"].symbol_last_modified_at == "2024-01-10T09:00:00+00:00"
    assert symbols["second"].symbol_last_modified_at == "2025-06-20T15:00:00+00:00"
    assert {symbols[name].symbol_date_source for name in ("first", "second")} == {"blame"}
    assert symbols["first"].last_modified_at == NEW  # the file's date is unchanged by this


async def test_a_mirror_without_history_uses_the_file_date_then_carries_unchanged_symbols(
    harness: Any, git_repo: Any
) -> None:
    two_commits(git_repo)
    await harness.run(status="computed", dates={"pkg/mod.py": NEW})
    first = by_symbol(harness)
    assert (first["first"].symbol_last_modified_at, first["first"].symbol_date_source) == (NEW, "file")

    git_repo.write("pkg/mod.py", FIRST + "\n\n" + SECOND.replace("* 2", "* 3"))
    git_repo.commit("third", date=NEWER)
    await harness.run(status="computed", dates={"pkg/mod.py": NEWER})

    later = by_symbol(harness)
    assert (later["first"].symbol_last_modified_at, later["first"].symbol_date_source) == (NEW, "carried")
    assert (later["second"].symbol_last_modified_at, later["second"].symbol_date_source) == (NEWER, "file")


async def test_without_a_known_file_date_the_symbol_date_is_unknown_never_now(harness: Any, git_repo: Any) -> None:
    two_commits(git_repo)
    await harness.run(status="failed")

    symbols = by_symbol(harness)
    assert symbols["first"].symbol_last_modified_at is None
    assert symbols["first"].symbol_date_source is None


def test_porcelain_lines_take_their_commit_time() -> None:
    a, b = "a" * 40, "b" * 40
    out = (
        f"{a} 1 1 1\nauthor X\ncommitter-time 100\nfilename f.py\n\tline one\n"
        f"{b} 2 2 1\ncommitter-time 200\nfilename f.py\n\tline two\n"
        f"{a} 3 3 1\nfilename f.py\n\tline three\n"
    ).encode()
    assert parse_porcelain(out) == [100, 200, 100]
