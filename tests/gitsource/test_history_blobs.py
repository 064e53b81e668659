"""Hydrating a blob-less mirror: the source files' past blobs, fetched in batches within a byte budget."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sextant.gitsource.access import RepoSource
from sextant.gitsource.history_access import open_history
from sextant.gitsource.history_blobs import (
    HYDRATED_REFS,
    PENDING_FILE,
    STATE_FILE,
    history_present,
    last_hydration_note,
    missing_source_blobs,
)
from sextant.gitsource.history_definitions import CODE_PATHSPECS
from sextant.gitsource.mirror import RepoMirror

CountObjects = Callable[[Path, str], int]
TOKEN = "ghp_hydrationSecret123"


def versioned_history(git_repo: Any, versions: int = 5) -> list[str]:
    """A source file rewritten `versions` times, a doc beside it, and a data file (not source)."""
    return [
        git_repo.commit_files(
            f"v{version}",
            {
                "pkg/core.py": f"def handler_{version}():\n    return {version}\n",
                "README.md": f"# v{version}\n",
                "data.csv": f"{version}\n",
            },
            date=f"2025-01-{version + 1:02d}T00:00:00+00:00",
        )
        for version in range(versions)
    ]


def blob_ids_at(git_repo: Any, path: str) -> set[str]:
    out = git_repo.git("log", "--format=", "--raw", "--no-abbrev", "--", path)
    return {line.split()[3] for line in out.splitlines() if line.startswith(":")}


def test_hydrating_fetches_every_past_source_blob_and_nothing_else(
    git_repo: Any, tmp_path: Path, trace2: Any, count_objects: CountObjects
) -> None:
    heads = versioned_history(git_repo)
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(git_repo.url)
    state = mirror.sync(source)
    git_dir = Path(state.path)
    env = open_history(git_dir).env
    assert count_objects(git_dir, "blob") == 0
    assert not history_present(git_dir, state.head_sha, env=env, timeout=30)

    trace2.clear()
    listed = missing_source_blobs(git_dir, state.head_sha, env=env, timeout=30)
    assert set(listed) == blob_ids_at(git_repo, "pkg/core.py")  # every version, no doc, no data file
    assert not [argv for argv in trace2.commands(top_level=False) if argv[0] == "fetch"]  # listing never fetches

    hydration = mirror.hydrate_history(source, state.head_sha)

    assert hydration is not None
    assert (hydration.complete, hydration.missing, hydration.fetched, hydration.fetches) == (True, 5, 5, 1)
    assert hydration.bytes_fetched > 0
    assert hydration.note is None
    assert count_objects(git_dir, "blob") == 5
    assert history_present(git_dir, heads[-1], env=env, timeout=30)
    assert history_present(git_dir, heads[0], env=env, timeout=30)  # an older commit is covered too
    assert hydrated_refs(git_dir) == [f"{HYDRATED_REFS}{heads[-1]}"]  # the record of how far it is hydrated


def hydrated_refs(git_dir: Path) -> list[str]:
    out = subprocess.run(
        ["git", "--git-dir", str(git_dir), "for-each-ref", "--format=%(refname)", HYDRATED_REFS],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.split()


def test_a_second_run_fetches_nothing_and_a_later_one_only_the_new_history(
    git_repo: Any, tmp_path: Path, trace2: Any
) -> None:
    versioned_history(git_repo)
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(git_repo.url)
    state = mirror.sync(source)
    first = mirror.hydrate_history(source, state.head_sha)
    assert first is not None
    assert first.complete

    trace2.clear()
    again = mirror.hydrate_history(source, state.head_sha)
    assert again is not None
    assert (again.complete, again.missing, again.fetched, again.fetches) == (True, 0, 0, 0)
    assert not [argv for argv in trace2.commands(top_level=False) if argv[0] == "fetch"]

    git_repo.commit_files("v5", {"pkg/core.py": "def handler_5():\n    return 5\n", "pkg/extra.py": "X = 1\n"})
    newer = mirror.sync(source)
    later = mirror.hydrate_history(source, newer.head_sha)
    assert later is not None
    assert (later.complete, later.missing, later.fetched) == (True, 2, 2)  # the two new source blobs only
    assert history_present(Path(newer.path), newer.head_sha, env=open_history(Path(newer.path)).env, timeout=30)
    assert hydrated_refs(Path(newer.path)) == [f"{HYDRATED_REFS}{newer.head_sha}"]  # it covers the older head


def test_branches_sharing_a_mirror_each_keep_their_hydrated_head(git_repo: Any, tmp_path: Path) -> None:
    versioned_history(git_repo, versions=2)
    git_repo.git("checkout", "-q", "-b", "side")
    side = git_repo.commit_files("side", {"pkg/side.py": "def side():\n    pass\n"})
    git_repo.git("checkout", "-q", "main")
    main = git_repo.commit_files("main", {"pkg/main.py": "def main():\n    pass\n"})
    mirror = RepoMirror(tmp_path / "cache")
    for branch, head in (("main", main), ("side", side)):
        state = mirror.sync(RepoSource(git_repo.url, branch=branch))
        assert state.head_sha == head
        hydration = mirror.hydrate_history(RepoSource(git_repo.url, branch=branch), head)
        assert hydration is not None
        assert hydration.complete
    git_dir = Path(state.path)
    env = open_history(git_dir).env
    assert history_present(git_dir, main, env=env, timeout=30)
    assert history_present(git_dir, side, env=env, timeout=30)
    assert sorted(hydrated_refs(git_dir)) == sorted(f"{HYDRATED_REFS}{head}" for head in (main, side))


def test_a_budget_too_small_stops_the_fetch_and_says_so_and_the_next_run_carries_on(
    git_repo: Any, tmp_path: Path
) -> None:
    git_repo.commit_files("many", {f"pkg/m{index:03}.py": f"VALUE_{index} = {index}\n" * 20 for index in range(150)})
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(git_repo.url)
    state = mirror.sync(source)
    git_dir = Path(state.path)

    short = mirror.hydrate_history(source, state.head_sha, max_bytes=1)

    assert short is not None
    assert not short.complete
    assert short.missing == 150
    assert 0 < short.fetched < 150
    assert short.note is not None
    assert "stopped at its" in short.note
    assert "budget" in short.note
    assert last_hydration_note(git_dir) == short.note
    assert not history_present(git_dir, state.head_sha, env=open_history(git_dir).env, timeout=30)

    rest = mirror.hydrate_history(source, state.head_sha)
    assert rest is not None
    assert (rest.complete, rest.missing, rest.fetched) == (True, 150 - short.fetched, 150 - short.fetched)
    assert last_hydration_note(git_dir) is None


def test_the_token_is_in_no_argument_and_no_record(git_repo: Any, tmp_path: Path, trace2: Any) -> None:
    versioned_history(git_repo)
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(git_repo.url, token=TOKEN, provider="github")
    state = mirror.sync(source)
    trace2.clear()
    hydration = mirror.hydrate_history(source, state.head_sha)
    assert hydration is not None
    assert hydration.complete
    assert TOKEN not in trace2.text()
    state_text = (Path(state.path) / STATE_FILE).read_text()
    assert TOKEN not in state_text
    assert json.loads(state_text)["complete"] is True
    assert TOKEN not in (Path(state.path) / "config").read_text()


def test_a_local_repository_is_read_in_place_and_never_hydrated(git_repo: Any, tmp_path: Path) -> None:
    versioned_history(git_repo)
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(str(git_repo.root))
    state = mirror.sync(source)
    assert mirror.hydrate_history(source, state.head_sha) is None
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").iterdir())


def test_a_merge_that_resolved_a_conflict_has_its_own_version_listed(git_repo: Any, tmp_path: Path) -> None:
    versioned_history(git_repo, versions=1)
    git_repo.git("checkout", "-q", "-b", "side")
    git_repo.commit_files("side", {"pkg/core.py": "def handler():\n    return 'side'\n"})
    git_repo.git("checkout", "-q", "main")
    git_repo.commit_files("main", {"pkg/core.py": "def handler():\n    return 'main'\n"})
    subprocess.run(["git", "-C", str(git_repo.root), "merge", "-q", "side"], capture_output=True, check=False)
    git_repo.write("pkg/core.py", "def handler():\n    return 'resolved'\n")
    merge = git_repo.commit("merge side")
    resolved = git_repo.git("rev-parse", f"{merge}:pkg/core.py").strip()
    mirror = RepoMirror(tmp_path / "cache")
    state = mirror.sync(RepoSource(git_repo.url, branch="main"))
    git_dir = Path(state.path)

    listed = missing_source_blobs(git_dir, merge, env=open_history(git_dir).env, timeout=30)

    assert resolved in listed  # written by the merge alone
    assert set(listed) == blob_ids_at(git_repo, "pkg/core.py") | {resolved}


def test_a_time_budget_spent_before_the_listing_fetches_nothing_and_says_so(git_repo: Any, tmp_path: Path) -> None:
    versioned_history(git_repo)
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(git_repo.url)
    state = mirror.sync(source)

    hydration = mirror.hydrate_history(source, state.head_sha, max_seconds=0)

    assert hydration is not None
    assert (hydration.complete, hydration.fetched) == (False, 0)
    assert hydration.note is not None
    assert "listing them stopped at its 0 s budget" in hydration.note
    assert last_hydration_note(Path(state.path)) == hydration.note


def logged_revisions(trace2: Any) -> list[list[str]]:
    """The revisions (before `--`) of each `git log` our code ran, options left out."""
    found = []
    for argv in trace2.commands():
        if argv and argv[0] == "log":
            before = argv[1 : argv.index("--")] if "--" in argv else argv[1:]
            found.append([arg for arg in before if not arg.startswith("-") or arg == "--not"])
    return found


def many_sources(git_repo: Any, commits: int = 3, files: int = 60) -> list[str]:
    """Commits each rewriting `files` source files, so a 1-byte budget stops after the first batch."""
    return [
        git_repo.commit_files(
            f"round {round_}",
            {f"pkg/m{index:03}.py": f"VALUE_{index} = {round_}\n" * 20 for index in range(files)},
            date=f"2025-02-{round_ + 1:02d}T00:00:00+00:00",
        )
        for round_ in range(commits)
    ]


def test_a_run_after_one_the_budget_stopped_does_not_list_that_history_again(
    git_repo: Any, tmp_path: Path, trace2: Any
) -> None:
    heads = many_sources(git_repo)
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(git_repo.url)
    state = mirror.sync(source)
    git_dir = Path(state.path)
    short = mirror.hydrate_history(source, state.head_sha, max_bytes=1)
    assert short is not None
    assert not short.complete
    assert (short.missing, short.carried) == (180, 0)

    trace2.clear()
    rest = mirror.hydrate_history(source, state.head_sha)

    assert rest is not None
    assert logged_revisions(trace2) == [[heads[-1], "--not", heads[-1]]]  # nothing listed again
    assert (rest.complete, rest.missing, rest.carried) == (True, 180 - short.fetched, 180 - short.fetched)
    assert missing_source_blobs(git_dir, heads[-1], env=open_history(git_dir).env, timeout=30) == []
    assert not (git_dir / PENDING_FILE).exists()


def test_after_a_stopped_run_a_newer_head_lists_only_what_came_since_and_ends_whole(
    git_repo: Any, tmp_path: Path, trace2: Any
) -> None:
    heads = many_sources(git_repo)
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(git_repo.url)
    state = mirror.sync(source)
    short = mirror.hydrate_history(source, state.head_sha, max_bytes=1)
    assert short is not None
    assert not short.complete
    newer_head = git_repo.commit_files("newer", {"pkg/new.py": "def new():\n    pass\n", "README.md": "# new\n"})
    newer = mirror.sync(source)
    git_dir = Path(newer.path)

    trace2.clear()
    rest = mirror.hydrate_history(source, newer.head_sha)

    assert rest is not None
    assert logged_revisions(trace2) == [[newer_head, "--not", heads[-1]]]
    assert (rest.complete, rest.missing, rest.carried) == (True, 181 - short.fetched, 180 - short.fetched)
    env = open_history(git_dir).env
    assert missing_source_blobs(git_dir, newer_head, env=env, timeout=30) == []
    assert history_present(git_dir, newer_head, env=env, timeout=30)


def test_a_pending_list_of_a_head_no_longer_in_the_history_is_not_trusted(git_repo: Any, tmp_path: Path) -> None:
    many_sources(git_repo, commits=2)
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(git_repo.url)
    state = mirror.sync(source)
    short = mirror.hydrate_history(source, state.head_sha, max_bytes=1)
    assert short is not None
    assert not short.complete
    git_repo.git("reset", "-q", "--hard", "HEAD~1")  # a force push: the listed head is gone from the branch
    rewritten = git_repo.commit_files("rewritten", {"pkg/other.py": "def other():\n    pass\n"})
    again = mirror.sync(source)
    git_dir = Path(again.path)
    assert again.head_sha == rewritten

    whole = mirror.hydrate_history(source, rewritten)

    assert whole is not None
    assert (whole.complete, whole.carried) == (True, 0)
    env = open_history(git_dir).env
    assert missing_source_blobs(git_dir, rewritten, env=env, timeout=30) == []
    assert history_present(git_dir, rewritten, env=env, timeout=30)


def test_an_unreadable_pending_list_is_ignored_and_the_history_listed_again(git_repo: Any, tmp_path: Path) -> None:
    many_sources(git_repo, commits=2)
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(git_repo.url)
    state = mirror.sync(source)
    git_dir = Path(state.path)
    short = mirror.hydrate_history(source, state.head_sha, max_bytes=1)
    assert short is not None
    (git_dir / PENDING_FILE).write_text(f"{state.head_sha}\nnot an id; rm -rf /\n")

    whole = mirror.hydrate_history(source, state.head_sha)

    assert whole is not None
    assert (whole.complete, whole.carried, whole.missing) == (True, 0, 120 - short.fetched)
    assert missing_source_blobs(git_dir, state.head_sha, env=open_history(git_dir).env, timeout=30) == []


def test_the_listing_picks_the_paths_git_s_own_pathspecs_match(git_repo: Any, tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {
        "pkg/we\nird name.py": "A = 1\n",  # a newline and a space in the name
        "pkg/\u00e9t\u00e9.go": "package pkg\n",
        "tools/build.py/helper.txt": "under a folder named like a source file: not source\n",
        "docs/guide.md": "# not source\n",
        "pkg/module.pyc": "not source\n",
        "Makefile.sh.in": "not source\n",
    }
    git_repo.commit_files("odd paths", files)
    git_repo.commit_files("again", {path: f"{content}# changed\n" for path, content in files.items()})
    mirror = RepoMirror(tmp_path / "cache")
    state = mirror.sync(RepoSource(git_repo.url))
    git_dir = Path(state.path)

    listed = missing_source_blobs(git_dir, state.head_sha, env=open_history(git_dir).env, timeout=30)

    by_git = git_repo.git("log", "--format=", "--raw", "--no-abbrev", "--", *CODE_PATHSPECS)
    expected = {line.split()[3] for line in by_git.splitlines() if line.startswith(":")}
    assert len(expected) == 4  # two versions of the .py and of the .go file
    assert set(listed) == expected


def test_among_thousands_of_listed_blobs_only_those_the_mirror_lacks_are_missing(git_repo: Any, tmp_path: Path) -> None:
    files = 2100  # more than are asked for one by one: presence is read from the store's object list
    git_repo.commit_files("many", {f"pkg/f{index:04}.py": f"VALUE = {index}\n" for index in range(files)})
    head = git_repo.commit_files("some", {f"pkg/f{index:04}.py": f"VALUE = -{index}\n" for index in range(10)})
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(git_repo.url)
    state = mirror.sync(source)
    git_dir = Path(state.path)
    read = [entry.blob_sha for entry in mirror.list_tree(source, head)][:500]
    mirror.read_blobs(source, read, 1 << 20)

    listed = missing_source_blobs(git_dir, head, env=open_history(git_dir).env, timeout=60)

    every = blob_ids_at(git_repo, "pkg")
    assert len(every) == files + 10
    assert set(listed) == every - set(read)
    assert len(listed) == files + 10 - 500


def test_a_fetch_under_way_says_a_revision_of_the_analysis_follows_it(git_repo: Any, tmp_path: Path) -> None:
    versioned_history(git_repo)
    mirror = RepoMirror(tmp_path / "cache")
    source = RepoSource(git_repo.url)
    state = mirror.sync(source)
    git_dir = Path(state.path)

    mirror.note_history_under_way(source, state.head_sha)

    note = last_hydration_note(git_dir)
    assert note is not None
    assert note.startswith("history not searched: ")  # the prefix every other history note has
    assert "still being fetched" in note
    assert "judged again" in note  # the first analysis is not the last word: a reader knows to wait
    assert "revised analysis" in note
    assert "next run's analysis" not in note  # the old wording, from before the reviser existed
    assert len(note) <= 240  # the Documentation Accuracy section shows a history note up to 240 characters

    hydration = mirror.hydrate_history(source, state.head_sha)
    assert hydration is not None
    assert hydration.complete
    assert last_hydration_note(git_dir) is None  # the end of the fetch replaces the note
