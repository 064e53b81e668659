"""Service processes for the cluster tests: started with a clean environment, their log read as it comes.

A reader thread keeps every stderr line, so a test can wait for a line (a service saying it consumes,
a store host saying it holds the store) under a generous deadline, and kill the process at that point.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

START_DEADLINE_SECONDS = 120.0
"""How long a service may take to say it consumes (imports and a cluster election on a loaded machine)."""


def service_env(url: str, home: Path, **extra: str) -> dict[str, str]:
    """The environment of one service process: this cluster, its own home, an R3 stream, local repos.

    Args:
        url: The cluster's NATS URLs, comma-separated.
        home: The process's SEXTANT_HOME (its git mirrors).
        extra: More variables (QDRANT_PATH, EMBEDDINGS_*, ...).

    Returns:
        The environment, without any NATS_/QDRANT_/OTEL_/SEXTANT_/LLM_ variable of the test's own.
    """
    prefixes = ("NATS_", "QDRANT_", "OTEL_", "SEXTANT_", "LLM_", "EMBEDDINGS_", "ANTHROPIC_", "OPENAI_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}
    env.update(NATS_URL=url, SEXTANT_HOME=str(home), SEXTANT_STREAM_REPLICAS="3", SEXTANT_ALLOW_LOCAL_REPOS="true")
    env.update(extra)
    return env


class ServiceProcess:
    """One service process and the lines it has logged so far."""

    def __init__(self, argv: Sequence[str], env: dict[str, str], name: str) -> None:
        self.name = name
        self.lines: list[str] = []
        self._changed = threading.Condition()
        self.process = subprocess.Popen(
            [sys.executable, *argv], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            with self._changed:
                self.lines.append(line)
                self._changed.notify_all()
        with self._changed:
            self._changed.notify_all()

    def count(self, text: str) -> int:
        """How many logged lines contain ``text``."""
        with self._changed:
            return sum(text in line for line in self.lines)

    def wait_for(self, text: str, times: int = 1, deadline: float = START_DEADLINE_SECONDS) -> None:
        """Wait until ``text`` was logged ``times`` times; fail if the process exits or time runs out."""
        end = time.monotonic() + deadline
        with self._changed:
            while sum(text in line for line in self.lines) < times:
                remaining = end - time.monotonic()
                tail = "".join(self.lines[-20:])
                assert self.process.poll() is None, f"{self.name} exited before logging {text!r}:\n{tail}"
                assert remaining > 0, f"{self.name} never logged {text!r} {times} times:\n{tail}"
                self._changed.wait(min(remaining, 1.0))

    def kill(self) -> None:
        """SIGKILL, as a crash or the OOM killer would stop it."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait()


def start_service(module: str, env: dict[str, str], name: str, ready: str = "consuming from") -> ServiceProcess:
    """``python -m <module>``, returned once it logs ``ready`` (by default: that it consumes from the bus)."""
    service = ServiceProcess(["-m", module], env, name)
    service.wait_for(ready)
    return service
