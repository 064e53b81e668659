"""Real processes for the fault suite: `sextant up` hosts, the services hosted in the test's own
process on a real nats-server, git repositories, the store read back.

Every wait here waits for a condition (a file, an event, a process state) under a generous deadline
that only turns a hang into a failure; no assertion depends on how fast anything is.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import nats.errors
import pytest

from sextant.bootstrap import Adapters, bootstrap
from sextant.bus import Bus, DeliveryPolicy, EmbeddedNats, build_broker, start_routers
from sextant.cli.services import all_services
from sextant.contracts import ChunksEmbedded, Event, EventParked, RepoRef, RepoUpdated, StageFailed

from ..support.embedders import token_hash_vector
from ..support.events import repo_updated
from ..support.processes import child_pids
from ..support.provider_server import ProviderServer
from ..support.wire_formats import openai_embeddings

DEADLINE_SECONDS = 240.0
"""How long a condition may take before the test calls it a hang (a loaded 2-core box is slow)."""


def wait_for(condition: Callable[[], bool], what: str, deadline: float = DEADLINE_SECONDS) -> None:
    """Poll `condition` until it holds; fail (naming `what`) only when it never does."""
    give_up = time.monotonic() + deadline
    while not condition():
        if time.monotonic() > give_up:
            raise AssertionError(f"never happened: {what}")
        time.sleep(0.05)


async def wait_until(condition: Callable[[], bool], what: str, deadline: float = DEADLINE_SECONDS) -> None:
    """`wait_for` for async tests: yields to the event loop, so subscriptions keep receiving."""
    give_up = time.monotonic() + deadline
    while not condition():
        if time.monotonic() > give_up:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.05)


@dataclass
class Host:
    """A `sextant up` process and where to reach it."""

    process: subprocess.Popen[str]
    home: Path
    url: str
    nats_pid: int | None = None

    def kill(self) -> None:
        """SIGKILL: no cleanup of any kind runs in the host."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        """Ctrl-C, as a person stops it."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=DEADLINE_SECONDS)


@dataclass
class Sextant:
    """Runs `sextant` commands and hosts against one SEXTANT_HOME."""

    home: Path
    env: dict[str, str]
    hosts: list[Host] = field(default_factory=list)

    def run(self, *args: str, **extra: str) -> subprocess.CompletedProcess[str]:
        """One command to completion."""
        return subprocess.run(
            [sys.executable, "-m", "sextant.cli", *args],
            env={**self.env, **extra},
            capture_output=True,
            text=True,
            timeout=DEADLINE_SECONDS,
            check=False,
        )

    def up(self) -> Host:
        """Start `sextant up` and wait until it has recorded its runtime."""
        record = self.home / "runtime.json"
        with_pid: dict[str, object] = {}
        process = subprocess.Popen(
            [sys.executable, "-m", "sextant.cli", "up"],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )

        def recorded() -> bool:
            if process.poll() is not None:
                raise AssertionError(f"sextant up exited {process.returncode}: {process.stderr.read()}")  # type: ignore[union-attr]
            try:
                with_pid.update(json.loads(record.read_text()))
            except (OSError, ValueError):
                return False
            return with_pid.get("pid") == process.pid

        wait_for(recorded, "sextant up records its runtime")
        children = [pid for pid in child_pids(process.pid) if "nats-server" in _cmdline(pid)]
        host = Host(process, self.home, str(with_pid["url"]), children[0] if children else None)
        self.hosts.append(host)
        return host


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def clean_environment() -> dict[str, str]:
    """The test process's environment without anything that would point Sextant elsewhere."""
    prefixes = ("NATS_", "QDRANT_", "OTEL_", "LLM_", "SEXTANT_", "EMBEDDINGS_", "INDEX_", "GIT_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}
    for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "COHERE_API_KEY", "CI"):
        env.pop(key, None)
    return env


@pytest.fixture
def sextant(tmp_path: Path, embeddings: ProviderServer) -> Iterator[Sextant]:
    """`sextant` commands on a home of the test's own, embedding through the local provider server."""
    runner = Sextant(tmp_path / "home", hosted_embeddings_env(tmp_path / "home", embeddings))
    yield runner
    for host in runner.hosts:
        if host.process.poll() is None:
            host.process.kill()
            host.process.wait()


def git(cwd: Path, *args: str) -> str:
    """Run git with a fixed identity; return its output."""
    return subprocess.run(
        ["git", "-c", "user.name=Fault", "-c", "user.email=fault@example.com", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def python_repository(root: Path, files: int, functions: int) -> Path:
    """A committed repository of `files` Python modules with `functions` functions each."""
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    for number in range(files):
        body = "\n\n".join(
            f"def step_{number}_{index}(value):\n"
            f'    """Step {index} of module {number}."""\n'
            f"    total = value + {index}\n"
            f"    return total * {number + 1}\n"
            for index in range(functions)
        )
        (root / f"module_{number:03d}.py").write_text(body + "\n")
    (root / "README.md").write_text("# Sample\n\nCall `step_0_0` from `module_000.py`.\n")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "initial")
    return root


def resident_memory(pid: int | str = "self") -> int:
    """Resident set size of a process in bytes (VmRSS), 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


EMBEDDING_DIMENSION = 16


def hashing_embeddings(request: Any) -> dict[str, Any]:
    """What OpenAI's /v1/embeddings answers, with token-hashing vectors (no model to load)."""
    vectors = [token_hash_vector(text, EMBEDDING_DIMENSION) for text in request["input"]]
    return openai_embeddings(vectors, model=request["model"])


@pytest.fixture
def embeddings() -> Iterator[ProviderServer]:
    """A local server speaking OpenAI's embeddings API; scripted faults come before its answers."""
    server = ProviderServer(answer=hashing_embeddings)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def hosted_embeddings_env(home: Path, embeddings: ProviderServer) -> dict[str, str]:
    """The environment of a deployment embedding through the local provider server, no language model."""
    return {
        **clean_environment(),
        "SEXTANT_HOME": str(home),
        "EMBEDDINGS_PROVIDER": "openai",
        "EMBEDDINGS_BASE_URL": f"{embeddings.url}/v1",
        "EMBEDDINGS_MODEL": "fault-suite-hashing",
        "EMBEDDINGS_DIMENSION": str(EMBEDDING_DIMENSION),
        "EMBEDDINGS_TIMEOUT": "5",
        "LLM_PROVIDER": "none",
        "INDEX_FILE_RECENCY": "true",
    }


QUICK_REDELIVERY = DeliveryPolicy(ack_wait_seconds=5.0, heartbeat_seconds=1.0, max_deliver=5, backoff_seconds=(0.2,))
"""A delivery left unacknowledged by a fault comes back in seconds, not the production minute."""


def run_ended(events: list[Event]) -> bool:
    """A run is over for the index path when its dense vectors are complete or a stage gave up."""
    return any(
        (isinstance(e, ChunksEmbedded) and e.complete) or isinstance(e, StageFailed | EventParked) for e in events
    )


class Pipeline:
    """Every embedded service hosted in this process on a real nats-server, with real adapters."""

    def __init__(self, env: dict[str, str], url: str, delivery: DeliveryPolicy = QUICK_REDELIVERY) -> None:
        self.env = env
        self.url = url
        self.delivery = delivery
        self.adapters: Adapters | None = None
        self.bus: Bus | None = None

    async def start(self) -> Pipeline:
        self.adapters = bootstrap(self.env)
        self.bus = Bus(build_broker(self.url), delivery=self.delivery)
        await start_routers(self.bus, all_services(self.env, self.adapters))
        return self

    async def stop(self) -> None:
        if self.bus is not None:
            await self.bus.close()
            self.bus = None
        if self.adapters is not None:
            self.adapters.close()
            self.adapters = None

    async def __aenter__(self) -> Pipeline:
        return await self.start()

    async def __aexit__(self, *_exc: object) -> None:
        await self.stop()

    async def publish(self, request: Event) -> int:
        """Publish a request; return the stream sequence before it (to follow the run from there)."""
        assert self.bus is not None
        after = await self.bus.last_sequence()
        await self.bus.publish(request)
        return after

    async def follow(self, run_id: str, after: int, until: Callable[[list[Event]], bool] = run_ended) -> list[Event]:
        """The run's events from ``after`` on, until ``until`` holds for them (a hang fails the test).

        A reader cut off by a lost connection (a killed nats-server) reads again from ``after``.
        """
        assert self.bus is not None
        bus = self.bus
        give_up = time.monotonic() + DEADLINE_SECONDS
        seen: list[Event] = []
        while time.monotonic() < give_up:
            seen = []
            try:
                async with asyncio.timeout(give_up - time.monotonic()):
                    async for _, event, _ in bus.read(follow=True, after_sequence=after):
                        if event is not None and event.run_id == run_id:
                            seen.append(event)
                            if until(seen):
                                return seen
            except (TimeoutError, nats.errors.Error):
                await asyncio.sleep(0.2)
        raise AssertionError(f"run {run_id} never ended; heard {[type(e).__name__ for e in seen]}")

    async def run(self, request: Event, until: Callable[[list[Event]], bool] = run_ended) -> list[Event]:
        """Publish a request and follow its run to the end."""
        return await self.follow(request.run_id, await self.publish(request), until)


@dataclass(frozen=True)
class StoreSnapshot:
    """What the store holds for one repository: every file's point ids, and the point counts."""

    files: dict[str, tuple[str, frozenset[str]]]
    """path -> (blob SHA, point ids)."""
    points: int
    missing_dense: int
    chunks: Counter[tuple[Any, ...]]
    """(path, lines, symbol, window, blob) of every stored point, with how often it is stored."""

    def assert_each_file_once(self, expected: StoreSnapshot) -> None:
        """Every file of ``expected`` present exactly once: same blob, same ids, nothing else stored."""
        assert self.files == expected.files
        assert self.points == expected.points == sum(len(ids) for _, ids in expected.files.values())
        assert self.chunks == expected.chunks
        assert set(self.chunks.values()) == {1}
        assert all(blob for blob, _ in self.files.values()), "a file is stored half-written"


def snapshot(env: dict[str, str], repo_key: str, adapters: Adapters | None = None) -> StoreSnapshot:
    """Read the store of ``env``'s home (through running adapters, or by opening it)."""
    own = adapters is None
    adapters = adapters or bootstrap(env)
    try:
        store = adapters.store
        files = {path: (entry.blob_sha, entry.point_ids) for path, entry in store.file_index(repo_key).items()}
        chunks = Counter(
            (p.path, p.start_line, p.end_line, p.symbol, p.window, p.blob_sha) for p in store.scroll_payloads(repo_key)
        )
        return StoreSnapshot(files, store.count(repo_key), store.count_missing_dense(repo_key), chunks)
    finally:
        if own:
            adapters.close()


@contextlib.asynccontextmanager
async def hosted(env: dict[str, str], nats_store: Path) -> AsyncIterator[Pipeline]:
    """Every embedded service started on a nats-server of its own (store ``nats_store``), stopped after."""
    with EmbeddedNats(nats_store) as server:
        async with Pipeline(env, server.url) as pipeline:
            yield pipeline


def request_for(repo: str) -> RepoUpdated:
    """A RepoUpdated starting a new run over ``repo`` (a path or URL)."""
    return repo_updated(RepoRef.for_url(repo), uuid.uuid4().hex)


def failures(events: list[Event]) -> list[Event]:
    """The run's StageFailed and EventParked events."""
    return [e for e in events if isinstance(e, StageFailed | EventParked)]


async def reference(tmp_path: Path, embeddings: ProviderServer, repo: str) -> StoreSnapshot:
    """The repository indexed on a fresh home and bus, with no fault."""
    home = tmp_path / "reference-home"
    env = hosted_embeddings_env(home, embeddings)
    async with hosted(env, tmp_path / "reference-nats") as pipeline:
        events = await pipeline.run(request_for(repo))
    assert not failures(events)
    return snapshot(env, RepoRef.for_url(repo).repo_key)
