"""Symbol dates: blame for a repository read in place, carried forward by text on a mirror without history."""

from __future__ import annotations

import dataclasses
import logging
import threading
from datetime import datetime
from typing import Any

import pytest

from sextant.chunkstore import ChunkPayload
from sextant.gitsource import RepoMirror, RepoSource
from sextant.indexer.symbol_dates import HistoryLineDates, history_line_dates
from sextant.parsing import build_chunks

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


def _history(git_repo: Any, paths: list[str]) -> HistoryLineDates:
    dates = history_line_dates(
        RepoMirror(git_repo.root / ".unused"),
        RepoSource(url=str(git_repo.root)),
        git_repo.git("rev-parse", "HEAD").strip(),
        paths,
    )
    assert dates is not None
    return dates


def _dates_at_head(git_repo: Any, paths: list[str]) -> HistoryLineDates:
    """Every line of the files dated: each line told as a chunk of its own."""
    dates = _history(git_repo, paths)
    for path in paths:
        count = len((git_repo.root / path).read_text(encoding="utf-8").splitlines())
        dates.want(path, [(line, line) for line in range(1, count + 1)])
    dates.wanted_all()
    dates.read()
    return dates


def _blame_times(git_repo: Any, path: str) -> list[int]:
    """Each head line's committer time by `git blame` along the first parents (what the pass computes)."""
    blamed = git_repo.git("blame", "--first-parent", "--line-porcelain", "HEAD", "--", path)
    return [int(line.split()[1]) for line in blamed.splitlines() if line.startswith("committer-time ")]


def _chunk_spans(git_repo: Any, path: str) -> list[tuple[int, int]]:
    text = (git_repo.root / path).read_text(encoding="utf-8")
    return [(chunk.start_line, chunk.end_line) for chunk in build_chunks(path, text, max_chars=2000)]


def _newest(times: list[int], spans: list[tuple[int, int]]) -> list[int]:
    """A chunk's date: the newest time among its lines (0: none known)."""
    return [max((time for time in times[start - 1 : end] if time), default=0) for start, end in spans]


def _told_and_read(git_repo: Any, paths: list[str]) -> HistoryLineDates:
    """The pass as the pipeline runs it: every file tells its chunks' spans, then the history is read."""
    dates = _history(git_repo, paths)
    for path in paths:
        dates.want(path, _chunk_spans(git_repo, path))
    dates.wanted_all()
    dates.read()
    return dates


def _day(number: int) -> str:
    return f"2024-{1 + number // 28:02d}-{1 + number % 28:02d}T12:00:00+00:00"


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


def test_a_line_merged_from_a_branch_is_dated_as_blame_along_the_first_parents_dates_it(git_repo: Any) -> None:
    two_commits(git_repo)
    git_repo.git("checkout", "-q", "-b", "feature")
    git_repo.write("pkg/mod.py", FIRST + "\n\n" + SECOND + "\n\ndef third():\n    return 3\n")
    git_repo.commit("feature: third", date=NEW.replace("15:00", "16:00"))
    git_repo.git("checkout", "-q", "main")
    git_repo.write("pkg/mod.py", FIRST.replace("+ 1", "+ 2") + "\n\n" + SECOND)
    git_repo.commit("main: first changes", date=NEW.replace("15:00", "17:00"))
    git_repo.git("merge", "-q", "--no-ff", "-m", "merge feature", "feature", date=NEWER)

    told = _told_and_read(git_repo, ["pkg/mod.py"])
    whole = _dates_at_head(git_repo, ["pkg/mod.py"])

    blamed = _blame_times(git_repo, "pkg/mod.py")
    spans = _chunk_spans(git_repo, "pkg/mod.py")
    assert whole.dates("pkg/mod.py", len(blamed)) == blamed  # every line, read to the start
    assert _newest(told.dates("pkg/mod.py", len(blamed)) or [], spans) == _newest(blamed, spans)


def test_moved_code_and_a_rename_are_dated_as_blame_along_the_first_parents_dates_them(git_repo: Any) -> None:
    functions = [f"def f{n}(x):\n    y = x + {n}\n    return y * {n}\n" for n in range(6)]
    git_repo.write("pkg/old_name.py", "\n\n".join(functions))
    git_repo.commit("six functions", date=_day(0))
    moved = [functions[3], functions[0], functions[1], functions[2], functions[4], functions[5]]
    git_repo.write("pkg/old_name.py", "\n\n".join(moved))
    git_repo.commit("move f3 to the top", date=_day(1))
    git_repo.move("pkg/old_name.py", "pkg/new_name.py")
    moved[4] = moved[4].replace("+ 4", "- 4")
    git_repo.write("pkg/new_name.py", "\n\n".join(moved))
    git_repo.commit("rename, and change f4", date=_day(2))
    git_repo.write("pkg/single.py", "def once():\n    return 1\n\n\ndef twice():\n    return 2\n")
    git_repo.commit("a file touched by one commit", date=_day(3))

    paths = ["pkg/new_name.py", "pkg/single.py"]
    dates = _told_and_read(git_repo, paths)

    whole = _dates_at_head(git_repo, paths)
    for path in paths:
        times = _blame_times(git_repo, path)
        spans = _chunk_spans(git_repo, path)
        assert whole.dates(path, len(times)) == times, path
        assert _newest(dates.dates(path, len(times)) or [], spans) == _newest(times, spans), path
    single = _blame_times(git_repo, "pkg/single.py")
    assert set(single) == {int(datetime.fromisoformat(_day(3)).timestamp())}


def test_the_pass_stops_once_every_chunk_has_its_date(git_repo: Any) -> None:
    for number in range(30):  # old history that the chunks at head no longer need
        git_repo.write("pkg/mod.py", f"def zero(x):\n    return x + {number}\n")
        git_repo.commit(f"change {number}", date=_day(number))
    git_repo.write("pkg/mod.py", FIRST + "\n\n" + SECOND)
    git_repo.commit("rewrite first, add second", date=NEWER)

    dates = _told_and_read(git_repo, ["pkg/mod.py"])

    newer = int(datetime.fromisoformat(NEWER).timestamp())
    assert dates.complete
    assert dates.pairs_diffed == 1  # the 30 older changes could not change a date: none was diffed
    assert dates.dates("pkg/mod.py", 6) == [newer] * 6 == _blame_times(git_repo, "pkg/mod.py")


def test_a_file_not_told_before_wanted_all_is_no_longer_followed(git_repo: Any) -> None:
    two_commits(git_repo)
    git_repo.write("pkg/other.py", "VALUE = 1\n")
    git_repo.commit("other", date=NEWER)

    dates = _history(git_repo, ["pkg/mod.py", "pkg/other.py"])
    dates.want("pkg/other.py", [(1, 1)])
    dates.wanted_all()
    dates.read()

    newer = int(datetime.fromisoformat(NEWER).timestamp())
    assert dates.dates("pkg/other.py", 1) == [newer]
    assert dates.pairs_diffed == 0  # other.py's one commit created it; pkg/mod.py was never asked for


def test_no_code_file_to_date_runs_no_pass(git_repo: Any) -> None:
    two_commits(git_repo)

    assert (
        history_line_dates(
            RepoMirror(git_repo.root / ".unused"),
            RepoSource(url=str(git_repo.root)),
            git_repo.git("rev-parse", "HEAD").strip(),
            [],
        )
        is None
    )  # with no path the log would have diffed every file of every commit


async def test_a_no_change_re_index_dates_nothing_and_a_docs_only_change_reads_no_history(
    build_harness: Any, hashing_embedder: Any, git_repo: Any, caplog: pytest.LogCaptureFixture
) -> None:
    two_commits(git_repo)
    git_repo.write("README.md", "# Title\n\nSome words.\n")
    git_repo.commit("readme", date=NEW)
    harness = build_harness(hashing_embedder, url=str(git_repo.root))
    harness.deps.settings = dataclasses.replace(harness.deps.settings, allow_local_repos=True)
    caplog.set_level(logging.INFO, logger="sextant.indexer.symbol_dates")

    await harness.run(status="computed", dates={"pkg/mod.py": NEW, "README.md": NEW})
    passes = [record for record in caplog.records if record.getMessage().startswith("symbol dates: 1 files")]
    first = by_symbol(harness)
    caplog.clear()
    again = await harness.run(status="computed", dates={"pkg/mod.py": NEW, "README.md": NEW})
    git_repo.write("README.md", "# Title\n\nOther words.\n")
    git_repo.commit("readme again", date=NEWER)
    docs_only = await harness.run(status="computed", dates={"pkg/mod.py": NEW, "README.md": NEWER})

    assert len(passes) == 1  # the first index read the history once, for its one code file
    assert not [thread for thread in threading.enumerate() if thread.name.startswith("symbol-dates")]
    assert again.files_added == again.files_changed == docs_only.files_added == 0
    assert docs_only.files_changed == 1
    assert not [record for record in caplog.records if record.getMessage().startswith("symbol dates:")]
    assert {name: payload.symbol_last_modified_at for name, payload in by_symbol(harness).items()} == {
        name: payload.symbol_last_modified_at for name, payload in first.items()
    }


def test_a_folder_name_holding_space_b_slash_neither_hides_its_file_nor_dates_another(git_repo: Any) -> None:
    # `diff --git a/d b/x.py b/d b/x.py`: the header's " b/" also appears inside the path.
    git_repo.write("x.py", "A = 1\nB = 2\n")
    git_repo.write("d b/x.py", "C = 3\n")
    git_repo.commit("first", date=OLD)
    git_repo.write("d b/x.py", "C = 3\nD = 4\n")
    git_repo.commit("second", date=NEW)
    git_repo.move("d b/x.py", "d b/y.py")
    git_repo.commit("rename", date=NEWER)

    dates = _dates_at_head(git_repo, ["x.py", "d b/y.py"])

    assert dates.complete
    assert dates.dates("x.py", 2) == _blame_times(git_repo, "x.py")
    assert dates.dates("d b/y.py", 2) == _blame_times(git_repo, "d b/y.py")


def test_a_repositorys_own_diff_and_log_settings_do_not_change_the_dates(git_repo: Any) -> None:
    # Read in place, git reads the repository's own config: merged hunks (context lines looking
    # added), headers without a/ b/, a root commit shown without its diff.
    git_repo.write("pkg/mod.py", "A = 1\nB = 2\nC = 3\nD = 4\nE = 5\n")
    git_repo.commit("first", date=OLD)
    git_repo.write("pkg/mod.py", "A = 10\nB = 2\nC = 3\nD = 4\nE = 50\n")
    git_repo.commit("second", date=NEW)
    expected = _blame_times(git_repo, "pkg/mod.py")
    for key, value in [("diff.interHunkContext", "10"), ("diff.noprefix", "true"), ("log.showRoot", "false")]:
        git_repo.git("config", key, value)

    dates = _dates_at_head(git_repo, ["pkg/mod.py"])

    assert dates.complete
    assert dates.dates("pkg/mod.py", 5) == expected


def test_a_file_renamed_from_javascript_to_typescript_keeps_its_lines_dates(git_repo: Any) -> None:
    # A migration renames m.js to m.ts: the pass follows the rename as blame does, though the head has no .js.
    git_repo.write("web/m.js", "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n")
    git_repo.commit("javascript", date=OLD)
    git_repo.move("web/m.js", "web/m.ts")
    git_repo.write("web/m.ts", "function a(): number {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n")
    git_repo.commit("typescript", date=NEW)

    dates = _dates_at_head(git_repo, ["web/m.ts"])

    assert dates.complete
    assert dates.dates("web/m.ts", 7) == _blame_times(git_repo, "web/m.ts")


def test_only_the_changes_that_can_still_date_a_chunk_are_diffed(git_repo: Any) -> None:
    git_repo.write("pkg/once.py", "def once():\n    return 1\n")  # one commit: its creation dates it, no diff
    git_repo.write("pkg/mod.py", FIRST)
    git_repo.commit("first", date=OLD)
    git_repo.write("pkg/mod.py", FIRST + "\n\n" + SECOND)
    git_repo.commit("second", date=NEW)
    git_repo.git("update-index", "--chmod=+x", "pkg/mod.py")
    git_repo.git("commit", "-q", "-m", "mode only", date=NEWER)  # no line changes: dates nothing
    git_repo.write("pkg/other.py", "VALUE = 1\n")
    git_repo.commit("other", date=NEWER)

    paths = ["pkg/once.py", "pkg/mod.py", "pkg/other.py"]
    dates = _told_and_read(git_repo, paths)

    assert dates.complete
    assert dates.pairs_diffed == 1  # mod.py's second commit; its first created it, as once.py's and other.py's did
    for path in paths:
        times = _blame_times(git_repo, path)
        assert dates.dates(path, len(times)) == times, path


def test_a_file_is_diffed_only_once_it_has_told_its_spans(git_repo: Any) -> None:
    for number in range(5):  # older changes a file not yet told would otherwise be stepped over
        git_repo.write("pkg/mod.py", f"def zero(x):\n    return x + {number}\n")
        git_repo.commit(f"change {number}", date=_day(number))
    git_repo.write("pkg/mod.py", FIRST + "\n\n" + SECOND)
    git_repo.commit("rewrite", date=NEWER)

    dates = _history(git_repo, ["pkg/mod.py"])
    reader = threading.Thread(target=dates.read)
    reader.start()  # the pass starts before the file is parsed, as in the pipeline
    dates.want("pkg/mod.py", _chunk_spans(git_repo, "pkg/mod.py"))
    dates.wanted_all()
    reader.join()

    assert dates.pairs_diffed == 1
    assert dates.dates("pkg/mod.py", 6) == _blame_times(git_repo, "pkg/mod.py")


def test_a_path_that_was_a_submodule_before_it_became_a_file_is_dated_from_the_file(git_repo: Any) -> None:
    git_repo.write("README.md", "docs\n")
    git_repo.commit("start", date=OLD)
    # A submodule entry: its "blob" is a commit of another repository, which this one does not hold.
    git_repo.git("update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},tool.py")
    git_repo.commit("tool as a submodule", date=NEW)
    git_repo.git("update-index", "--force-remove", "tool.py")
    git_repo.write("tool.py", "A = 1\nB = 2\n")
    git_repo.commit("tool as a file", date=NEWER)
    git_repo.write("tool.py", "A = 1\nB = 3\n")
    git_repo.commit("change B", date="2026-03-01T08:00:00+00:00")

    dates = _dates_at_head(git_repo, ["tool.py"])

    assert dates.complete
    assert dates.dates("tool.py", 2) == _blame_times(git_repo, "tool.py")
