"""Faults against real processes: a killed host, poison messages, a busy home, hostile repositories.

Each test asserts the invariant the fault threatens — every file's points present exactly once,
every message accounted for, nothing executed, no second server — not the symptom once seen.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import nats
import pytest

from sextant.bus import Bus, build_broker
from sextant.contracts import RepoRef

from ..support.processes import is_gone
from ..support.provider_server import ProviderServer
from .conftest import (
    DEADLINE_SECONDS,
    Sextant,
    embeddings,
    git,
    python_repository,
    reference,
    request_for,
    snapshot,
    wait_for,
    wait_until,
)

__all__ = ["embeddings"]

pytestmark = [pytest.mark.faults, pytest.mark.bus, pytest.mark.process, pytest.mark.timeout(900)]


async def first_event(url: str, subject: str, matches: Any = None) -> dict[str, Any]:
    """Subscribe before anything is published; return the first event body on `subject` that matches."""
    client = await nats.connect(url)
    found: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    async def seen(message: Any) -> None:
        body = json.loads(message.data)
        if not found.done() and (matches is None or matches(body)):
            found.set_result(body)

    await client.subscribe(subject, cb=seen)
    await client.flush()
    return {"client": client, "found": found}


async def publish(url: str, repo: Path) -> str:
    """Start a run over ``repo`` on the host's bus, as `sextant publish repo-updated` would; its run id."""
    bus = Bus(build_broker(url))
    await bus.connect()
    try:
        request = request_for(str(repo))
        await bus.publish(request)
        return request.run_id
    finally:
        await bus.close()


def writing_chunks(body: dict[str, Any]) -> bool:
    """An indexer progress report of a run that has written chunks (or, on a fast machine, finished)."""
    detail = body.get("detail", "")
    return body.get("stage") == "indexer" and (("(indexing)" in detail and detail[:2] != "0 ") or "(done)" in detail)


KILL_POINTS = {
    # Between two upsert batches: some files written, perhaps one of them half.
    "mid-upsert": ("sextant-progress.>", writing_chunks),
    # The payloads are announced; the dense phase (and the indexer's ack) is under way or just done.
    "between upsert and ack": ("sextant.chunks.indexed.>", None),
}


@pytest.mark.parametrize("kill_point", list(KILL_POINTS))
async def test_a_host_killed_mid_run_then_restarted_leaves_every_file_complete_once(
    sextant: Sextant, embeddings: ProviderServer, tmp_path: Path, kill_point: str
) -> None:
    # Mid-upsert needs a run long enough to be caught between batches: many small ones, most cutting
    # across files. The other kill point only needs the payloads announced.
    files, functions = (80, 8) if kill_point == "mid-upsert" else (20, 4)
    repo = python_repository(tmp_path / "repo", files=files, functions=functions)
    sextant.env["INDEX_GROUP_CHUNKS"] = "3"
    host = sextant.up()
    subject, matches = KILL_POINTS[kill_point]
    watch = await first_event(host.url, subject, matches)
    await publish(host.url, repo)
    await asyncio.wait_for(watch["found"], DEADLINE_SECONDS)
    await watch["client"].close()
    host.kill()  # SIGKILL: no cleanup of any kind runs in the host
    if host.nats_pid is not None:
        await wait_until(lambda: is_gone(host.nats_pid or 0), "the killed host's nats-server exits with it")

    at_the_kill = snapshot(sextant.env, RepoRef.for_url(str(repo)).repo_key)
    restarted = sextant.up()
    watch = await first_event(restarted.url, "sextant.chunks.embedded.>", lambda body: body.get("complete"))
    await publish(restarted.url, repo)
    embedded = await asyncio.wait_for(watch["found"], DEADLINE_SECONDS)
    await watch["client"].close()
    restarted.stop()

    assert embedded["points_missing"] == 0
    stored = snapshot(sextant.env, embedded["repo"]["repo_key"])
    assert stored.missing_dense == 0
    expected = await reference(tmp_path, embeddings, str(repo))
    stored.assert_each_file_once(expected)
    assert set(stored.files) == {p.name for p in repo.iterdir() if p.is_file()}
    # The completeness marker: at the kill, a file that looks whole (it has its blob) is whole.
    for path, (blob, ids) in at_the_kill.files.items():
        assert not blob or (blob, ids) == expected.files[path], f"{path} looks complete but is not"


POISON_BODIES = {
    "deeply nested JSON": b"[" * 200_000 + b"]" * 200_000,
    "truncated JSON": b'{"type": "repo.updated", "event_id": "x", "repo": {"url": "/nowhere"',
    "an unknown event type": json.dumps({"type": "repo.exploded", "event_id": "e1", "run_id": "r1"}).encode(),
    "a wrong field type": json.dumps(
        {"type": "repo.updated", "event_id": "e2", "run_id": 7, "repo": "not-a-ref", "occurred_at": 1}
    ).encode(),
}


async def test_poison_messages_are_parked_with_a_reason_and_the_pipeline_keeps_working(
    sextant: Sextant, tmp_path: Path
) -> None:
    repo = python_repository(tmp_path / "repo", files=2, functions=1)
    host = sextant.up()
    client = await nats.connect(host.url)
    stream = client.jetstream()
    parked: list[dict[str, Any]] = []

    async def on_parked(message: Any) -> None:
        parked.append(json.loads(message.data))

    await client.subscribe("sextant.event.parked.>", cb=on_parked)
    await client.flush()

    sequences = {}
    for name, body in POISON_BODIES.items():
        ack = await stream.publish("sextant.repo.updated.poison", body, headers={"Nats-Msg-Id": f"poison-{name}"})
        sequences[ack.seq] = name
    missing_claim = await stream.publish(
        "sextant.repo.updated.poison",
        b"{}",
        headers={"Nats-Msg-Id": "poison-claim", "Sextant-Claim": "claims/does-not-exist"},
    )
    sequences[missing_claim.seq] = "a claim check whose object is gone"

    await wait_until(
        lambda: {p.get("stream_sequence") for p in parked} >= set(sequences),
        f"every poison message parked (got {len(parked)} of {len(sequences)})",
    )
    for event in parked:
        if event.get("stream_sequence") in sequences:
            assert event["reason"], f"no reason for {sequences[event['stream_sequence']]}"

    watch = await first_event(host.url, "sextant.analysis.completed.>")
    await publish(host.url, repo)
    analysis = await asyncio.wait_for(watch["found"], DEADLINE_SECONDS)
    await watch["client"].close()
    await client.close()
    host.stop()
    assert analysis["markdown"]


def test_a_second_host_on_a_busy_home_is_refused_and_a_killed_host_leaves_nothing_running(
    sextant: Sextant,
) -> None:
    first = sextant.up()
    second = sextant.run("up")
    assert second.returncode == 2
    assert "Traceback" not in second.stderr
    assert str(sextant.home) in second.stderr
    assert len([p for p in _nats_servers() if str(sextant.home) in p[1]]) == 1

    first.kill()
    if first.nats_pid is not None:
        wait_for(lambda: is_gone(first.nats_pid or 0), "the killed host's nats-server exits with it")
    assert not [p for p in _nats_servers() if str(sextant.home) in p[1]]

    again = sextant.up()  # the home is free again: the lock died with its holder
    again.stop()
    assert again.process.returncode in {0, 130}


def _nats_servers() -> list[tuple[int, str]]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if "nats-server" in command and not is_gone(int(entry.name)):
            found.append((int(entry.name), command))
    return found


def hostile_repository(root: Path, marker: Path) -> Path:
    """A repository whose own config, attributes and hooks would each write `marker` if git obeyed them."""
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    (root / ".gitattributes").write_text("*.py filter=evil diff=evil\n")
    (root / "app.py").write_text("def main():\n    return 1\n")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "hostile")
    # Armed only after the commit: from here on, anything that obeys the repository runs `touch`.
    touch = f"sh -c 'echo ran >> {marker}'"
    for key, value in {
        "core.fsmonitor": touch,
        "core.hooksPath": str(root / "hooks"),
        "core.sshCommand": touch,
        "core.pager": touch,
        "diff.external": touch,
        "filter.evil.clean": touch,
        "filter.evil.smudge": touch,
        "filter.evil.process": touch,
        "diff.evil.textconv": touch,
        "uploadpack.packObjectsHook": touch,
    }.items():
        git(root, "config", key, value)
    hooks = root / "hooks"
    hooks.mkdir()
    for hook in ("post-checkout", "post-index-change", "reference-transaction", "pre-auto-gc"):
        (hooks / hook).write_text(f"#!/bin/sh\necho ran >> {marker}\n")
        (hooks / hook).chmod(0o755)
    return root


def test_a_hostile_local_repository_runs_nothing_of_its_own(sextant: Sextant, tmp_path: Path) -> None:
    marker = tmp_path / "EXECUTED"
    repo = hostile_repository(tmp_path / "hostile", marker)

    result = sextant.run("analyze", str(repo), "--json")

    assert result.returncode == 0, result.stderr
    assert not marker.exists(), "a command from the repository's own config or hooks ran"
    assert json.loads(result.stdout)["markdown"]


def test_a_partial_clone_with_a_hostile_promisor_fetches_nothing(sextant: Sextant, tmp_path: Path) -> None:
    marker = tmp_path / "EXECUTED"
    source = python_repository(tmp_path / "source", files=3, functions=1)
    git(source, "config", "uploadpack.allowFilter", "true")
    partial = tmp_path / "partial"
    git(tmp_path, "clone", "-q", "--filter=blob:none", "--no-checkout", f"file://{source}", str(partial))
    git(partial, "config", "remote.origin.uploadpack", f"sh -c 'echo ran >> {marker}; exec git-upload-pack \"$@\"' --")

    result = sextant.run("index", str(partial), "--json")

    assert not marker.exists(), "the promisor remote's uploadpack command ran"
    assert "Traceback" not in result.stderr
    # The missing blobs are not fetched: the run fails visibly, naming why, rather than fetch them.
    assert result.returncode == 1, result.stderr
    assert "not in the local repository" in result.stderr


def test_two_commands_on_one_home_never_run_two_servers_and_lose_nothing(
    sextant: Sextant, embeddings: ProviderServer, tmp_path: Path
) -> None:
    """Two `sextant index` at once on one SEXTANT_HOME: one runs; the other either waits its turn
    (it started after) or is refused with one line — never a second nats-server on the store."""
    repo = python_repository(tmp_path / "repo", files=6, functions=2)
    commands = [
        subprocess.Popen(
            [sys.executable, "-m", "sextant.cli", "index", str(repo), "--json"],
            env=sextant.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    servers_seen = 0
    give_up = time.monotonic() + DEADLINE_SECONDS
    while any(command.poll() is None for command in commands) and time.monotonic() < give_up:
        servers_seen = max(servers_seen, len([p for p in _nats_servers() if str(sextant.home) in p[1]]))
        time.sleep(0.05)
    outcomes = [(command.wait(timeout=DEADLINE_SECONDS), *command.communicate()) for command in commands]

    assert servers_seen <= 1
    assert sorted(code for code, _, _ in outcomes)[0] == 0, outcomes
    for code, _, stderr in outcomes:
        assert code in {0, 2}, stderr
        assert "Traceback" not in stderr
        if code == 2:
            assert str(sextant.home) in stderr
    assert not [p for p in _nats_servers() if str(sextant.home) in p[1]]
    stored = snapshot(sextant.env, json.loads(next(out for code, out, _ in outcomes if code == 0))["repo"]["repo_key"])
    assert stored.missing_dense == 0
    assert set(stored.chunks.values()) == {1}
    assert set(stored.files) == {p.name for p in repo.iterdir() if p.is_file()}
