"""The real recency scanner, as two ``python -m sextant.recency_scanner`` processes, on a 3-node cluster.

Both processes join the scanner's durable consumer on the R3 stream and scan a local git repository
built here. Mid-run one NATS node and one scanner are killed with SIGKILL; every request still ends
with exactly one result (its id derives from the request, so a redelivered scan is stored once).
"""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from sextant.bus import EmbeddedNats
from sextant.contracts import RepoRef, RepoUpdated, event_id_for, utc_now_iso

from .cluster_bus import connect_when_ready, publish_until_stored, read_events, wait_for_runs
from .processes import service_env, start_service

pytestmark = [pytest.mark.cluster, pytest.mark.timeout(600)]

REQUESTS = 60
KILL_AFTER = 20


def git_repository(root: Path, files: int) -> Path:
    root.mkdir(parents=True)
    identity = ["-c", "user.name=Cluster", "-c", "user.email=cluster@example.com"]
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=root, check=True)
    for number in range(files):
        (root / f"module_{number}.py").write_text(f"VALUE = {number}\n")
        subprocess.run(["git", "add", "."], cwd=root, check=True)
        subprocess.run(["git", *identity, "commit", "-q", "-m", f"add {number}"], cwd=root, check=True)
    return root


async def test_two_real_scanners_survive_a_killed_node_and_a_killed_scanner(
    cluster: list[EmbeddedNats], tmp_path: Path
) -> None:
    repo = git_repository(tmp_path / "repo", files=5)
    ref = RepoRef.for_url(str(repo))
    url = ",".join(node.url for node in cluster)
    client = await connect_when_ready(url)
    scanners = [
        start_service("sextant.recency_scanner", service_env(url, tmp_path / f"home-{n}"), f"scanner-{n}")
        for n in range(2)
    ]
    try:
        for index in range(REQUESTS):
            if index == KILL_AFTER:
                victim = cluster[2].pid
                assert victim is not None
                os.kill(victim, signal.SIGKILL)
                scanners[0].kill()
            run_id = f"scan-{index:03d}"
            event = RepoUpdated(
                event_id=event_id_for(RepoUpdated, run_id), run_id=run_id, occurred_at=utc_now_iso(), repo=ref
            )
            await publish_until_stored(client, event)
        results = await wait_for_runs(client, "sextant.recency.computed.>", REQUESTS)
        computed = await read_events(client, "sextant.recency.computed.>")
    finally:
        for scanner in scanners:
            scanner.kill()
        await client.close()
    assert sorted(results) == [f"scan-{i:03d}" for i in range(REQUESTS)]
    assert set(results.values()) == {1}, "a redelivered scan produced a second result"
    assert all(getattr(e, "status", None) == "computed" for e in computed)
    assert all(len(getattr(e, "dates", None) or {}) == 5 for e in computed), "a scan read no dates"
