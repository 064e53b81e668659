"""Symbol dates: blame for a repository read in place, carried forward by text on a mirror without history."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

from sextant.chunkstore import ChunkPayload
from sextant.gitsource import RepoMirror, RepoSource
from sextant.indexer.symbol_dates import HistoryLineDates, history_line_dates

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


def _dates_at_head(git_repo: Any, paths: list[str]) -> HistoryLineDates:
    dates = history_line_dates(
        RepoMirror(git_repo.root / ".unused"),
        RepoSource(url=str(git_repo.root)),
        git_repo.git("rev-parse", "HEAD").strip(),
        paths,
    )
    dates.read()
    return dates


def test_one_pass_over_history_dates_every_line_as_blame_does_across_a_rename(git_repo: Any) -> None:
    two_commits(git_repo)
    git_repo.move("pkg/mod.py", "pkg/module.py")
    git_repo.write("pkg/module.py", FIRST + "\n\n" + SECOND.replace("* 2", "* 3"))
    git_repo.write("pkg/z\u00e9.py", "A = 1\nB = 2\nC = 3\n")  # a name git quotes in diff headers
    git_repo.commit("rename, and change second", date=NEWER)
    git_repo.write("pkg/other.py", "VALUE = 1\n")
    git_repo.commit("other", date=NEWER)

    dates = _dates_at_head(git_repo, ["pkg/module.py", "pkg/other.py"])

    old, new, newer = (int(datetime.fromisoformat(day).timestamp()) for day in (OLD, NEW, NEWER))
    assert dates.complete
    assert dates.dates("pkg/module.py", 6) == [old, old, new, new, new, newer]
    blamed = git_repo.git("blame", "--line-porcelain", "HEAD", "--", "pkg/module.py")
    assert [int(line.split()[1]) for line in blamed.splitlines() if line.startswith("committer-time")] == [
        old, old, new, new, new, newer,
    ]  # fmt: skip
    assert dates.dates("pkg/other.py", 1) == [newer]
    assert dates.dates("README.md", 3) is None  # not asked for


def test_a_line_merged_from_a_branch_takes_the_merge_date(git_repo: Any) -> None:
    two_commits(git_repo)
    git_repo.git("checkout", "-q", "-b", "feature")
    git_repo.write("pkg/mod.py", FIRST.replace("+ 1", "+ 10") + "\n\n" + SECOND)
    git_repo.commit("feature work", date=NEW.replace("15:00", "16:00"))
    git_repo.git("checkout", "-q", "main")
    git_repo.git("merge", "-q", "--no-ff", "-m", "merge feature", "feature", date=NEWER)

    dates = _dates_at_head(git_repo, ["pkg/mod.py"])

    old, new, newer = (int(datetime.fromisoformat(day).timestamp()) for day in (OLD, NEW, NEWER))
    assert dates.dates("pkg/mod.py", 6) == [old, newer, new, new, new, new]  # when it reached main
