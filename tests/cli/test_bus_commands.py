"""`sextant publish`, `events`, `schema` and `up` as a user runs them, against real nats-servers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from sextant.bus import EmbeddedNats

from ..conftest import GitRepo
from .conftest import NATS_PASSWORD, NATS_USER, SextantRunner


def test_publish_then_events_shows_the_event(sextant: SextantRunner, tmp_path: Path) -> None:
    with EmbeddedNats(tmp_path / "nats") as server:
        published = sextant(
            "publish", "repo-updated", "https://github.com/acme/widgets.git", "--provider", "github",
            "--branch", "main", "--head-sha", "0123456789abcdef", "--changed", "src/a.py",
            NATS_URL=server.url,
        )  # fmt: skip
        assert "published repo.updated" in published.stdout
        again = sextant("publish", "repo-updated", "https://github.com/acme/widgets.git", "--provider",
                        "github", "--branch", "main", "--head-sha", "0123456789abcdef", "--changed",
                        "src/a.py", NATS_URL=server.url)  # fmt: skip
        assert "duplicate" in again.stdout
        lines = sextant("events", "--json", NATS_URL=server.url).stdout.splitlines()
        assert len(lines) == 1
        event = json.loads(lines[0])
        assert event["type"] == "repo.updated"
        assert event["repo"]["branch"] == "main"
        assert event["changed_paths"] == ["src/a.py"]
        readable = sextant("events", NATS_URL=server.url).stdout
        assert "repo.updated" in readable
        assert "1 changed paths" in readable


def test_publish_from_a_json_request(sextant: SextantRunner, tmp_path: Path) -> None:
    request = tmp_path / "request.json"
    request.write_text(json.dumps({"url": "https://gitlab.com/a/b.git", "provider": "gitlab", "force": True}))
    with EmbeddedNats(tmp_path / "nats") as server:
        sextant("publish", "repo-updated", "--from-json", str(request), NATS_URL=server.url)
        [line] = sextant("events", "--json", NATS_URL=server.url).stdout.splitlines()
    assert json.loads(line)["force"] is True


def test_schema_lists_every_event_with_described_fields(sextant: SextantRunner) -> None:
    schema = json.loads(sextant("schema").stdout)
    assert {"RepoUpdated", "ChunksIndexed", "AnalysisCompleted", "ReviewCompleted"} <= set(schema["$defs"])
    assert schema["$defs"]["RepoUpdated"]["properties"]["head_commit_date"]["description"]


def test_up_hosts_the_services_and_other_commands_find_it(
    sextant: SextantRunner, sextant_env: dict[str, str], git_repo: GitRepo
) -> None:
    git_repo.write("main.py", 'def greet(name):\n    """Greet someone."""\n    return f"hi {name}"\n')
    git_repo.commit("one")
    repo = git_repo.root
    up = subprocess.Popen(
        [sys.executable, "-m", "sextant.cli", "up"], env=sextant_env, stderr=subprocess.PIPE, text=True
    )
    try:
        record = Path(sextant_env["SEXTANT_HOME"]) / "runtime.json"
        deadline = time.monotonic() + 60
        while not record.exists():
            assert up.poll() is None, up.stderr.read() if up.stderr else "sextant up exited"
            assert time.monotonic() < deadline, "sextant up did not start"
            time.sleep(0.2)
        indexed = json.loads(sextant("index", str(repo), "--json").stdout)
        assert indexed["files_added"] == 1
        assert json.loads(record.read_text())["pid"] == up.pid
        assert record.stat().st_mode & 0o777 == 0o600  # the runtime record is the owner's alone
    finally:
        up.send_signal(signal.SIGINT)
        assert up.wait(timeout=60) == 0
    assert not record.exists()
    assert os.path.isdir(Path(sextant_env["SEXTANT_HOME"]) / "nats")


def test_cli_default_limit_is_the_selection_constant() -> None:
    from sextant.cli import direct_commands
    from sextant.selection import ANALYSIS_LIMIT

    assert direct_commands.ANALYSIS_LIMIT == ANALYSIS_LIMIT


def test_publishing_a_url_with_credentials_is_refused() -> None:
    import pytest

    from sextant.publish import build_repo_updated

    with pytest.raises(ValueError, match="carries credentials") as refused:
        build_repo_updated("https://x-access-token:ghp_secret@github.com/a/b.git")
    assert "ghp_secret" not in str(refused.value)


def test_events_follow_prints_new_events_as_they_arrive(
    sextant: SextantRunner, sextant_env: dict[str, str], tmp_path: Path
) -> None:
    # No step waits on a clock: each read blocks until the follower prints, and the second event is
    # published only after the first line proves the follower is subscribed (the overall pytest
    # timeout is the only bound, so a loaded machine is slower, never wrong).
    errors = tmp_path / "follower.stderr"
    with EmbeddedNats(tmp_path / "nats") as server, errors.open("w") as error_file:
        env = {**sextant_env, "NATS_URL": server.url}
        sextant("publish", "repo-updated", "https://github.com/acme/one.git", NATS_URL=server.url)
        follower = subprocess.Popen(
            [sys.executable, "-m", "sextant.cli", "events", "--follow", "--subject", "sextant.repo.updated.*"],
            env=env, stdout=subprocess.PIPE, stderr=error_file, text=True,
        )  # fmt: skip
        try:
            assert follower.stdout is not None
            first = follower.stdout.readline()
            assert first, f"the follower exited: {errors.read_text()}"
            sextant("publish", "repo-updated", "https://github.com/acme/two.git", NATS_URL=server.url)
            second = follower.stdout.readline()
            assert second, f"the follower exited: {errors.read_text()}"
        finally:
            follower.send_signal(signal.SIGINT)
            status = follower.wait()
    assert "github_com_acme_one" in first
    assert "github_com_acme_two" in second
    assert status == 130, errors.read_text()  # Ctrl-C is how a follower stops: 130, no traceback
    assert "Traceback" not in errors.read_text()


def test_up_never_shows_or_stores_nats_credentials(sextant_env: dict[str, str], password_nats: str) -> None:
    url = password_nats.replace("nats://", f"nats://{NATS_USER}:{NATS_PASSWORD}@")
    up = subprocess.Popen(
        [sys.executable, "-m", "sextant.cli", "up"],
        env={**sextant_env, "NATS_URL": url}, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert up.stderr is not None
        banner = up.stderr.readline()  # written once the services consume
        record = Path(sextant_env["SEXTANT_HOME"]) / "runtime.json"
        stored = record.read_text()
        mode = record.stat().st_mode & 0o777
    finally:
        up.send_signal(signal.SIGINT)
        rest = up.communicate()[1]
    assert "sextant is up" in banner, banner + rest
    assert "***@127.0.0.1" in banner
    assert NATS_PASSWORD not in banner + stored + rest
    assert json.loads(stored)["url"].startswith("nats://***@")
    assert mode == 0o600
