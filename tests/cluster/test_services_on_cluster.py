"""The real recency scanner, as two ``python -m sextant.recency_scanner`` processes, on a 3-node cluster.

Both processes join the scanner's durable consumer on the R3 stream and scan a local git repository
built here. Mid-run one NATS node and one scanner are killed with SIGKILL; every request still ends
with exactly one result (its id derives from the request, so a redelivered scan is stored once).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from sextant.bus import EmbeddedNats
from sextant.contracts import RepoRef, RepoUpdated, event_id_for, utc_now_iso

from .test_cluster_kill import DEADLINE_SECONDS, connect_when_ready, publish_until_stored, run_ids

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


def start_scanner(url: str, home: Path) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NATS_", "QDRANT_", "OTEL_", "SEXTANT_"))}
    env.update(NATS_URL=url, SEXTANT_HOME=str(home), SEXTANT_STREAM_REPLICAS="3", SEXTANT_ALLOW_LOCAL_REPOS="true")
    process = subprocess.Popen(
        [sys.executable, "-m", "sextant.recency_scanner"], env=env, stderr=subprocess.PIPE, text=True
    )
    assert process.stderr is not None
    for _ in range(1000):  # bounded: the log has a handful of lines before it says it consumes
        line = process.stderr.readline()
        assert line, "the scanner exited before consuming"
        if "consuming from" in line:
            return process
    raise AssertionError("the scanner never said it consumes")


async def test_two_real_scanners_survive_a_killed_node_and_a_killed_scanner(
    cluster: list[EmbeddedNats], tmp_path: Path
) -> None:
    repo = git_repository(tmp_path / "repo", files=5)
    ref = RepoRef.for_url(str(repo))
    url = ",".join(node.url for node in cluster)
    client = await connect_when_ready(url)
    scanners = [start_scanner(url, tmp_path / "home-a"), start_scanner(url, tmp_path / "home-b")]
    try:
        for index in range(REQUESTS):
            if index == KILL_AFTER:
                victim = cluster[2].pid
                assert victim is not None
                os.kill(victim, signal.SIGKILL)
                scanners[0].send_signal(signal.SIGKILL)
                scanners[0].wait()
            run_id = f"scan-{index:03d}"
            event = RepoUpdated(
                event_id=event_id_for(RepoUpdated, run_id), run_id=run_id, occurred_at=utc_now_iso(), repo=ref
            )
            await publish_until_stored(client, event)
        results: Counter[str] = Counter()
        deadline = asyncio.get_running_loop().time() + DEADLINE_SECONDS
        while len(results) < REQUESTS:
            assert asyncio.get_running_loop().time() < deadline, f"only {len(results)} of {REQUESTS} results"
            await asyncio.sleep(0.5)
            try:
                results = await run_ids(client, "sextant.recency.computed.>")
            except Exception:  # a read may hit the dead node: try again
                results = Counter()
        computed = [e async for _, e, _ in client.read("sextant.recency.computed.>") if e is not None]
    finally:
        for scanner in scanners:
            if scanner.poll() is None:
                scanner.kill()
                scanner.wait()
        await client.close()
    assert sorted(results) == [f"scan-{i:03d}" for i in range(REQUESTS)]
    assert set(results.values()) == {1}, "a redelivered scan produced a second result"
    assert all(getattr(e, "status", None) == "computed" for e in computed)
    assert all(len(getattr(e, "dates", None) or {}) == 5 for e in computed), "a scan read no dates"
