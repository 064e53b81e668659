"""The recency scanner service: computed, skipped, incremental and failed — it never blocks a run."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import msgspec
import pytest

from sextant.bootstrap import bootstrap, host
from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.config import token_lookup
from sextant.contracts import FileRecencyComputed, RepoRef, RepoUpdated, encode_event
from sextant.recency_scanner import app as recency_scanner
from sextant.recency_scanner.config import RecencySettings
from sextant.recency_scanner.handlers import on_repo_updated

from ..conftest import GitRepo
from ..support.events import repo_updated

TOKEN = "ghp_s3cretTOKENvalue1234567890"


def request(url: str, **fields: object) -> RepoUpdated:
    return repo_updated(RepoRef.for_url(url, provider=str(fields.pop("provider", "generic"))), "run", **fields)


ON = RecencySettings(enabled=True)


async def test_feature_off_skips_at_once_with_no_map(git_repo: GitRepo) -> None:
    git_repo.write("a.py", "x = 1\n")
    git_repo.commit("one")
    [event] = await on_repo_updated(request(git_repo.url), RecencySettings(enabled=False))
    assert (event.status, event.dates, event.files) == ("skipped", None, 0)


async def test_full_scan_dates_every_file_at_head(git_repo: GitRepo) -> None:
    git_repo.write("old.py", "x = 1\n")
    git_repo.commit("old", date="2024-01-02T03:04:05+00:00")
    git_repo.write("new.py", "y = 2\n")
    git_repo.commit("new", date="2026-05-06T07:08:09+00:00")
    [event] = await on_repo_updated(request(git_repo.url), ON)
    assert event.status == "computed"
    assert event.dates == {"old.py": "2024-01-02T03:04:05+00:00", "new.py": "2026-05-06T07:08:09+00:00"}
    assert event.commits_read == 2
    assert event.request.run_id == "run"


async def test_incremental_run_stamps_changed_paths_with_the_head_date_and_never_now() -> None:
    url = "https://github.com/acme/widgets.git"
    [dated] = await on_repo_updated(request(url, changed_paths=["a.py"], head_commit_date="2026-01-01T00:00:00Z"), ON)
    assert dated.mode == "incremental"
    assert dated.dates is not None
    assert dated.dates["a.py"].startswith("2026-01-01")
    [undated] = await on_repo_updated(request(url, changed_paths=["a.py", "b.py"]), ON)
    assert undated.dates == {"a.py": None, "b.py": None}


async def test_missing_branch_fails_softly(git_repo: GitRepo) -> None:
    git_repo.write("a.py", "x = 1\n")
    git_repo.commit("one")
    event = request(git_repo.url)
    event = msgspec.structs.replace(event, repo=RepoRef.for_url(git_repo.url, branch="no-such-branch"))
    [result] = await on_repo_updated(event, ON)
    assert result.status == "failed"
    assert result.reason


async def test_a_refused_clone_with_a_token_leaks_it_nowhere(caplog: pytest.LogCaptureFixture) -> None:
    settings = RecencySettings(enabled=True, timeout_seconds=20, tokens=token_lookup({"GITHUB_TOKEN": TOKEN}))
    caplog.set_level(logging.DEBUG)
    [result] = await on_repo_updated(request("https://127.0.0.1:9/acme/widgets.git", provider="github"), settings)
    assert result.status == "failed"
    assert TOKEN not in encode_event(result).decode()
    assert TOKEN not in caplog.text
    assert "widgets" in caplog.text  # the warning was logged


async def test_a_url_carrying_credentials_is_refused() -> None:
    [result] = await on_repo_updated(request(f"https://x-access-token:{TOKEN}@github.com/acme/w.git"), ON)
    assert result.status == "failed"
    assert TOKEN not in encode_event(result).decode()


async def test_a_100k_path_map_travels_through_the_claim_check(tmp_path: Path) -> None:
    changed = [f"src/pkg_{i // 1000:03d}/module_{i:06d}.py" for i in range(100_000)]
    with EmbeddedNats(tmp_path / "nats") as server:
        bus = Bus(build_broker(server.url))
        spec = host(recency_scanner.SERVICE, bootstrap({}), {"INDEX_FILE_RECENCY": "true"})
        await start_routers(bus, [spec])
        await bus.publish(
            request("https://github.com/acme/big.git", changed_paths=changed, head_commit_date="2026-02-03")
        )
        found: list[FileRecencyComputed] = []
        for _ in range(200):
            found = [e async for _, e, _ in bus.read() if isinstance(e, FileRecencyComputed)]
            if found:
                break
            await asyncio.sleep(0.1)
        claims = [
            raw.headers for _, _, raw in [x async for x in bus.read()] if raw.headers and "Sextant-Claim" in raw.headers
        ]
        await bus.close()
    [event] = found
    assert event.dates is not None
    assert len(event.dates) == 100_000
    assert len(claims) == 2  # the request and the map were both too big for one message


async def test_local_path_is_refused_unless_the_service_allows_it(git_repo: GitRepo) -> None:
    git_repo.write("a.py", "x = 1\n")
    git_repo.commit("one", date="2026-02-03T04:05:06+00:00")
    [refused] = await on_repo_updated(request(str(git_repo.root)), ON)
    assert refused.status == "failed"
    assert refused.reason is not None
    assert "SEXTANT_ALLOW_LOCAL_REPOS" in refused.reason
    allowed = RecencySettings(enabled=True, allow_local_repos=True)
    [scanned] = await on_repo_updated(request(str(git_repo.root)), allowed)
    assert scanned.dates == {"a.py": "2026-02-03T04:05:06+00:00"}


def test_the_setting_is_read_from_the_environment() -> None:
    assert RecencySettings.from_env({}).allow_local_repos is False
    assert RecencySettings.from_env({"SEXTANT_ALLOW_LOCAL_REPOS": "true"}).allow_local_repos is True
