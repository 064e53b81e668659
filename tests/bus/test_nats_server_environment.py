"""The embedded nats-server starts with what a program needs, never our keys, tokens or bus password.

Read from ``/proc/<pid>/environ``: the environment the kernel gave the running server.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sextant.bus import EmbeddedNats

from ..support.our_secrets import held_secrets, plant_our_secrets


def _environment_of(pid: int) -> dict[str, str]:
    entries = Path(f"/proc/{pid}/environ").read_bytes().decode("utf-8", "replace").split("\0")
    return dict(entry.split("=", 1) for entry in entries if "=" in entry)


def test_the_server_holds_none_of_our_secrets_and_keeps_what_it_runs_with(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plant_our_secrets(monkeypatch)
    monkeypatch.setenv("GOMAXPROCS", "1")
    monkeypatch.setenv("LC_CTYPE", "C.UTF-8")

    with EmbeddedNats(tmp_path / "nats") as server:
        assert server.pid is not None
        environment = _environment_of(server.pid)

    assert held_secrets(environment) == set()
    assert environment["PATH"] == os.environ["PATH"]
    assert environment["GOMAXPROCS"] == "1"  # the Go runtime's tuning is the operator's to give
    assert environment["LC_CTYPE"] == "C.UTF-8"
