"""Real processes for the fault suite: `sextant up` hosts, git repositories, a stream reader.

Every wait here waits for a condition (a file, an event, a process state) under a generous deadline
that only turns a hang into a failure; no assertion depends on how fast anything is.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

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


def is_gone(pid: int) -> bool:
    """Whether `pid` has exited (an unreaped zombie counts as exited)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in {"Z", "X"}


def child_pids(pid: int) -> list[int]:
    """Direct children of `pid`, read from /proc."""
    try:
        listed = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [int(child) for child in listed]


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


@pytest.fixture
def sextant(tmp_path: Path) -> Iterator[Sextant]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NATS_", "QDRANT_", "OTEL_", "LLM_", "SEXTANT_"))}
    for key in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "COHERE_API_KEY", "CI"):
        env.pop(key, None)
    env["SEXTANT_HOME"] = str(tmp_path / "home")
    env["INDEX_FILE_RECENCY"] = "true"
    runner = Sextant(tmp_path / "home", env)
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
