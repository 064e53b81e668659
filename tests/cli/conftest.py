"""Run the real `sextant` command in a subprocess, with its own SEXTANT_HOME."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from sextant.bus import find_nats_server

from ..support.provider_server import provider_server  # noqa: F401 — the shared fixture, re-exported

SextantRunner = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def sextant_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NATS_", "QDRANT_", "OTEL_", "LLM_"))}
    env.pop("ANTHROPIC_API_KEY", None)
    env.pop("OPENAI_API_KEY", None)
    env["SEXTANT_HOME"] = str(tmp_path / "home")
    env["INDEX_FILE_RECENCY"] = "true"
    return env


@pytest.fixture
def sextant(sextant_env: dict[str, str]) -> SextantRunner:
    def run(*args: str, check: bool = True, timeout: float = 180, **env: str) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [sys.executable, "-m", "sextant.cli", *args],
            check=False,
            env={**sextant_env, **env},
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if check and result.returncode != 0:
            raise AssertionError(f"sextant {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
        return result

    return run


NATS_USER, NATS_PASSWORD = "alice", "right-password"


@pytest.fixture
def password_nats(tmp_path: Path) -> Iterator[str]:
    """A real nats-server (JetStream, free port) that wants NATS_USER/NATS_PASSWORD; yields its URL."""
    ports = tmp_path / "password-nats-ports"
    ports.mkdir()
    server = subprocess.Popen(
        [str(find_nats_server()), "-a", "127.0.0.1", "-p", "-1", "-js", "-sd", str(tmp_path / "password-js"),
         "--user", NATS_USER, "--pass", NATS_PASSWORD, "--ports_file_dir", str(ports)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        yield _wait_for_url(ports, server)
    finally:
        server.terminate()
        server.wait()


def _wait_for_url(ports: Path, server: subprocess.Popen[bytes]) -> str:
    while True:  # the server writes its ports file within milliseconds; a dead server ends the loop
        assert server.poll() is None, "nats-server exited"
        for found in ports.glob("*.ports"):
            try:
                return str(json.loads(found.read_text())["nats"][0])
            except (ValueError, KeyError):
                continue
