"""Faults against real processes: a killed host, poison messages, a busy home, hostile repositories.

Each test asserts the invariant the fault threatens — every file's points present exactly once,
every message accounted for, nothing executed, no second server — not the symptom once seen.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import nats
import pytest

from sextant.bootstrap import bootstrap

from .conftest import DEADLINE_SECONDS, Sextant, git, is_gone, python_repository, wait_for, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.bus, pytest.mark.model, pytest.mark.timeout(900)]

RUN_ID = re.compile(r"run ([0-9a-f]{32})")


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


def publish(sextant: Sextant, url: str, repo: Path) -> str:
    result = sextant.run("publish", "repo-updated", str(repo), NATS_URL=url)
    assert result.returncode == 0, result.stderr
    run = RUN_ID.search(result.stdout + result.stderr)
    assert run is not None, result.stdout
    return run.group(1)


def stored_chunks(sextant_env: dict[str, str], repo_key: str) -> tuple[Counter[tuple[Any, ...]], int, int]:
    """(path, lines, symbol, blob) of every stored point, the point count, and how many lack a dense vector."""
    adapters = bootstrap(sextant_env)
    try:
        store = adapters.store
        chunks = Counter(
            (p.path, p.start_line, p.end_line, p.symbol, p.window, p.blob_sha) for p in store.scroll_payloads(repo_key)
        )
        return chunks, store.count(repo_key), store.count_missing_dense(repo_key)
    finally:
        adapters.close()


async def test_a_host_killed_mid_run_then_restarted_leaves_every_file_complete_once(
    sextant: Sextant, tmp_path: Path
) -> None:
    repo = python_repository(tmp_path / "repo", files=30, functions=4)
    host = sextant.up()
    watch = await first_event(host.url, "sextant.chunks.indexed.>")
    publish(sextant, host.url, repo)
    indexed = await asyncio.wait_for(watch["found"], DEADLINE_SECONDS)
    await watch["client"].close()
    repo_key = indexed["repo"]["repo_key"]

    # The payloads are announced; the dense phase (and the ack) is under way or just done. SIGKILL.
    host.kill()
    if host.nats_pid is not None:
        await wait_until(lambda: is_gone(host.nats_pid or 0), "the killed host's nats-server exits with it")

    restarted = sextant.up()
    watch = await first_event(restarted.url, "sextant.chunks.embedded.>", lambda body: body.get("complete"))
    run_id = publish(sextant, restarted.url, repo)
    embedded = await asyncio.wait_for(watch["found"], DEADLINE_SECONDS)
    await watch["client"].close()
    restarted.stop()
    assert embedded["points_missing"] == 0

    chunks, count, missing = stored_chunks(sextant.env, repo_key)

    reference = Sextant(tmp_path / "reference-home", {**sextant.env, "SEXTANT_HOME": str(tmp_path / "reference-home")})
    fresh = reference.run("index", str(repo), "--json")
    assert fresh.returncode == 0, fresh.stderr
    expected, expected_count, _ = stored_chunks(reference.env, repo_key)

    assert run_id
    assert missing == 0
    assert count == expected_count == sum(expected.values())
    assert chunks == expected  # every file, every chunk, exactly once
    assert all(times == 1 for times in chunks.values())
    assert {path for path, *_ in chunks} == {p.name for p in repo.iterdir() if p.is_file()}


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
    publish(sextant, host.url, repo)
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
