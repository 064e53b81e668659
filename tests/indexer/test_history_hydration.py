"""An index run leaves its blob-less mirror hydrated with the source files' past blobs, unless turned off.

A first run's fetch (the whole history) follows its ChunksIndexed; a later run's (the history since)
is done before it.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import threading
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from sextant.contracts import RepoRef
from sextant.doc_claims import HistoryLocations, check_docs
from sextant.doc_claims.sources.repository import read_snapshot
from sextant.gitsource.access import RepoSource
from sextant.gitsource.history_access import open_history
from sextant.gitsource.history_blobs import STATE_FILE, UNDER_WAY_NOTE, history_present, missing_source_blobs
from sextant.gitsource.mirror import RepoMirror
from sextant.indexer import IndexerSettings, IndexProgress, index_repository
from sextant.indexer.history_hydration import history_fetches_settled
from sextant.indexer.parse_process import ParseProcess, ParseReply, ParseRequest

from ..doc_claims.test_blobless_fallback import sessions_history


def two_versions(git_repo: Any) -> str:
    git_repo.commit_files("one", {"shop/orders.py": "def place_order():\n    pass\n", "README.md": "# Shop\n"})
    return str(git_repo.commit_files("two", {"shop/orders.py": "def submit_order():\n    pass\n"}))


async def test_a_first_run_leaves_its_mirror_hydrated(harness: Any, git_repo: Any) -> None:
    head = two_versions(git_repo)

    indexed = await harness.run()  # waits for the fetch that follows the run

    git_dir = harness.deps.mirrors.mirror_dir(RepoSource(git_repo.url, branch="main"))
    env = open_history(git_dir).env
    assert indexed.head_sha == head
    assert history_present(git_dir, head, env=env, timeout=30)
    assert missing_source_blobs(git_dir, head, env=env, timeout=30) == []


async def test_a_budget_of_zero_turns_the_fetch_off(harness: Any, git_repo: Any) -> None:
    head = two_versions(git_repo)
    harness.deps = dataclasses.replace(
        harness.deps, settings=dataclasses.replace(harness.deps.settings, history_fetch_bytes=0)
    )

    await harness.run()

    git_dir = harness.deps.mirrors.mirror_dir(RepoSource(git_repo.url, branch="main"))
    env = open_history(git_dir).env
    assert not history_present(git_dir, head, env=env, timeout=30)
    assert len(missing_source_blobs(git_dir, head, env=env, timeout=30)) == 1  # the old orders.py


def test_the_budget_is_read_from_the_environment(tmp_path: Path) -> None:
    env = {"SEXTANT_HOME": str(tmp_path)}
    assert IndexerSettings.from_env(env).history_fetch_bytes == 64 * 1024 * 1024
    assert IndexerSettings.from_env({**env, "INDEX_HISTORY_FETCH_BYTES": "0"}).history_fetch_bytes == 0


def wanted_objects(packet_trace: Path) -> Counter[str]:
    """How many times our side asked a remote for each object (``want`` lines of git's packet trace)."""
    if not packet_trace.exists():
        return Counter()
    return Counter(line.rsplit(" ", 1)[1] for line in packet_trace.read_text().splitlines() if "fetch> want " in line)


def past_and_head(git_repo: Any) -> tuple[str, list[str], list[str]]:
    """A history whose head holds two source files, one under a vendored folder the indexer leaves out."""
    git_repo.commit_files(
        "one", {"shop/orders.py": "def place_order():\n    pass\n", "vendor/lib.py": "def helper():\n    pass\n"}
    )
    git_repo.commit_files("two", {"shop/orders.py": "def submit_order():\n    pass\n", "README.md": "# Shop\n"})
    head = git_repo.commit_files("three", {"shop/orders.py": "def submit_order(now):\n    pass\n"})
    past = [git_repo.git("rev-parse", f"{head}~{n}:shop/orders.py").strip() for n in (1, 2)]
    read = [git_repo.git("rev-parse", f"{head}:{path}").strip() for path in ("shop/orders.py", "README.md")]
    return head, past, read


async def test_no_blob_is_fetched_twice_and_the_mirror_ends_whole(
    harness: Any, git_repo: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    head, past, read = past_and_head(git_repo)
    trace = tmp_path / "packets.txt"
    monkeypatch.setenv("GIT_TRACE_PACKET", str(trace))

    indexed = await harness.run()

    git_dir = harness.deps.mirrors.mirror_dir(RepoSource(git_repo.url, branch="main"))
    env = open_history(git_dir).env
    wanted = wanted_objects(trace)
    assert indexed.files_added == 2  # orders.py and the README; vendor/ is left out
    assert [object_id for object_id, times in wanted.items() if times > 1] == []
    assert all(wanted[blob] == 1 for blob in [*past, *read])
    vendored = git_repo.git("rev-parse", f"{head}:vendor/lib.py").strip()
    assert wanted[vendored] == 1  # a head file the run did not read is fetched by the hydration: no hole
    assert history_present(git_dir, head, env=env, timeout=30)
    assert missing_source_blobs(git_dir, head, env=env, timeout=30) == []
    state = json.loads((git_dir / STATE_FILE).read_text())
    assert state["complete"] is True
    assert state["fetched"] == len(past) + 1  # the past versions and the unread head file, not what the run read


def test_the_head_waits_for_the_reader_and_only_what_it_left_is_fetched(
    git_repo: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    head, past, read = past_and_head(git_repo)
    mirrors = RepoMirror(tmp_path / "mirrors", timeout=60)
    source = RepoSource(git_repo.url, branch="main")
    mirrors.sync(source)
    trace = tmp_path / "packets.txt"
    monkeypatch.setenv("GIT_TRACE_PACKET", str(trace))
    head_read = threading.Event()
    with ThreadPoolExecutor(max_workers=1) as pool:
        hydrating = pool.submit(mirrors.hydrate_history, source, head, head_read=head_read)
        mirrors.read_blobs(source, read, max_bytes=1 << 20)  # the reader, while the hydration runs
        head_read.set()
        hydration = hydrating.result(timeout=60)

    wanted = wanted_objects(trace)
    assert hydration is not None
    assert hydration.complete
    assert [object_id for object_id, times in wanted.items() if times > 1] == []
    assert all(wanted[blob] == 1 for blob in [*past, *read])
    git_dir = mirrors.mirror_dir(source)
    assert missing_source_blobs(git_dir, head, env=open_history(git_dir).env, timeout=30) == []


def test_a_reader_that_never_says_done_leaves_the_history_incomplete_not_marked(git_repo: Any, tmp_path: Path) -> None:
    head, _past, _read = past_and_head(git_repo)
    mirrors = RepoMirror(tmp_path / "mirrors", timeout=60)
    source = RepoSource(git_repo.url, branch="main")
    mirrors.sync(source)

    hydration = mirrors.hydrate_history(source, head, max_seconds=0.5, head_read=threading.Event())

    git_dir = mirrors.mirror_dir(source)
    assert hydration is not None
    assert not hydration.complete
    assert hydration.note is not None
    assert not history_present(git_dir, head, env=open_history(git_dir).env, timeout=30)


async def test_a_mirror_that_cannot_take_the_fetch_notes_costs_the_history_never_the_run(
    harness: Any, git_repo: Any
) -> None:
    head = two_versions(git_repo)
    source = RepoSource(git_repo.url, branch="main")
    harness.deps.mirrors.sync(source)
    git_dir = harness.deps.mirrors.mirror_dir(source)
    (git_dir / STATE_FILE).mkdir()  # stands for a full disk or a read-only file: the outcome cannot be written

    indexed = await harness.run()

    assert indexed.head_sha == head
    assert indexed.files_added == 2


GATE = """#!/bin/sh
# Holds every request to the remote until the test creates the release file (60 s at most: a safety net).
tries=0
while [ ! -e '{release}' ] && [ "$tries" -lt 1200 ]; do sleep 0.05; tries=$((tries + 1)); done
exec git -c uploadpack.allowFilter=true upload-pack "$@"
"""


def hold_fetches(git_dir: Path, tmp_path: Path) -> Path:
    """From now on, the mirror's fetches from its remote wait until the returned file exists."""
    release = tmp_path / "release-fetches"
    gate = tmp_path / "gate.sh"
    gate.write_text(GATE.format(release=release))
    gate.chmod(0o755)
    subprocess.run(["git", "--git-dir", str(git_dir), "config", "remote.origin.uploadpack", str(gate)], check=True)
    return release


async def test_a_first_run_does_not_wait_for_its_history_and_the_findings_say_it_was_being_fetched(
    harness: Any, git_repo: Any, tmp_path: Path
) -> None:
    sessions_history(git_repo)
    rename = git_repo.git("log", "-1", "--format=%h", "--grep=Rename").strip()
    source = RepoSource(git_repo.url, branch="main")
    git_dir = harness.deps.mirrors.mirror_dir(source)
    released: list[Path] = []

    def hold_once_the_run_is_done(progress: IndexProgress) -> None:
        if progress.phase == "done":  # the run's own reads are over: only the history fetch is held
            released.append(hold_fetches(git_dir, tmp_path))

    request = harness.request()
    indexed = await index_repository(request, harness.recency(request), harness.deps, hold_once_the_run_is_done)

    env = open_history(git_dir).env
    locations = HistoryLocations(harness.deps.settings.mirrors_dir)
    ref = RepoRef.for_url(git_repo.url, branch="main")
    payloads = read_snapshot(open_history(git_repo.root)).payloads
    assert indexed.head_sha is not None
    assert not history_present(git_dir, indexed.head_sha, env=env, timeout=30)  # the fetch is held, the run is out
    early = check_docs(payloads, history=locations.open(ref, indexed.head_sha))
    removed = next(finding for finding in early.findings if finding.ref == "SyncSession()")
    assert removed.status == "unverifiable"
    assert UNDER_WAY_NOTE in removed.evidence
    assert early.history_note == UNDER_WAY_NOTE

    released[0].touch()
    await history_fetches_settled()

    assert history_present(git_dir, indexed.head_sha, env=env, timeout=30)
    later = check_docs(payloads, history=locations.open(ref, indexed.head_sha))
    removed = next(finding for finding in later.findings if finding.ref == "SyncSession()")
    assert removed.status == "contradicted"
    assert removed.removed_by == f"{rename} Rename SyncSession to Session"
    assert later.history_note is None


async def test_a_later_run_fetches_the_history_since_before_its_chunks_indexed(harness: Any, git_repo: Any) -> None:
    two_versions(git_repo)
    await harness.run()  # the first run, and the fetch of the whole history after it
    head = git_repo.commit_files("three", {"shop/orders.py": "def submit_order(now):\n    pass\n"})

    request = harness.request()
    indexed = await index_repository(request, harness.recency(request), harness.deps)  # not waiting for anything after

    git_dir = harness.deps.mirrors.mirror_dir(RepoSource(git_repo.url, branch="main"))
    env = open_history(git_dir).env
    assert indexed.head_sha == head
    assert history_present(git_dir, head, env=env, timeout=30)  # fetched before ChunksIndexed
    state = json.loads((git_dir / STATE_FILE).read_text())
    assert (state["head"], state["complete"], state["note"]) == (head, True, None)


class CountingParseProcess(ParseProcess):
    """A real parse worker's client that counts the requests it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.requests = 0

    def submit(self, request: ParseRequest) -> Future[ParseReply]:
        self.requests += 1
        return super().submit(request)


async def test_auto_parses_a_first_run_in_the_worker_and_a_run_beside_its_fetch_in_place(
    harness: Any, git_repo: Any
) -> None:
    two_versions(git_repo)
    worker = CountingParseProcess()
    harness.deps = dataclasses.replace(harness.deps, parse_process=worker)
    assert harness.deps.settings.parse_process == "auto"
    try:
        first = await harness.run()  # its fetch of the whole history follows it: no git process beside
        assert first.files_added == 2
        assert worker.requests == 1
        git_repo.commit_files("three", {"shop/orders.py": "def submit_order(now):\n    pass\n"})
        later = await harness.run()  # the history since is fetched beside this one
        assert later.files_changed == 1
        assert worker.requests == 1  # parsed in the run's own process
    finally:
        worker.close()
