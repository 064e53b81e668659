"""One nats-server per store, and it dies with the process that started it — with real processes."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sextant.bus import Bus, EmbeddedNats, build_broker
from sextant.bus.nats_server import PORTS_DIR, StoreInUseError

from ..support.processes import is_gone
from .test_bus_real_server import collect, repo_updated

OWNER = """
import json, sys, time
from pathlib import Path
from sextant.bus import EmbeddedNats
server = EmbeddedNats(Path(sys.argv[1]))
server.start()
print(json.dumps({"url": server.url, "server_pid": server.pid}), flush=True)
time.sleep(3600)
"""


@pytest.fixture
def owner(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], dict[str, object]]]:
    """Another process (a CLI, say) running its embedded server on ``tmp_path / 'nats'``."""
    process = subprocess.Popen([sys.executable, "-c", OWNER, str(tmp_path / "nats")], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    started = json.loads(process.stdout.readline())  # the owner's own start has a deadline
    yield process, started
    if process.poll() is None:
        process.kill()
    process.wait()


def test_a_second_server_on_a_store_in_use_is_refused(
    tmp_path: Path, owner: tuple[subprocess.Popen[str], dict[str, object]]
) -> None:
    process, _ = owner
    with pytest.raises(StoreInUseError) as refused:
        EmbeddedNats(tmp_path / "nats").start()
    assert refused.value.data_dir == tmp_path / "nats"
    assert refused.value.holder_pid == process.pid
    assert str(process.pid) in str(refused.value)


async def test_a_killed_owner_takes_its_server_with_it_and_frees_the_store(
    tmp_path: Path, owner: tuple[subprocess.Popen[str], dict[str, object]]
) -> None:
    process, started = owner
    bus = Bus(build_broker(str(started["url"])))
    await bus.connect()
    await bus.publish(repo_updated("before-kill"))
    await bus.close()
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    server_pid = int(str(started["server_pid"]))
    deadline = time.monotonic() + 30
    while not is_gone(server_pid):  # the kernel sends it SIGTERM; it shuts down on its own
        assert time.monotonic() < deadline, "the orphaned nats-server kept running"
        await asyncio.sleep(0.05)
    # The store is freed once every process holding its lock has exited; on a loaded machine the
    # last of them may still be exiting just after the server's pid is gone.
    server = EmbeddedNats(tmp_path / "nats")
    while True:
        try:
            server.start()
            break
        except StoreInUseError:
            assert time.monotonic() < deadline, "the killed owner's store stayed locked"
            await asyncio.sleep(0.05)
    try:
        ports_files = list((tmp_path / "nats" / PORTS_DIR).iterdir())
        assert [p.name for p in ports_files] == [f"nats-server_{server.pid}.ports"]
        bus = Bus(build_broker(server.url))
        await bus.connect()
        assert [e.run_id for e in await collect(bus) if e is not None] == ["before-kill"]
        await bus.close()
    finally:
        server.stop()
    assert not (tmp_path / "nats" / PORTS_DIR).exists()


def test_the_embedded_server_fsyncs_every_write(tmp_path: Path) -> None:
    with EmbeddedNats(tmp_path / "nats"):
        config = (tmp_path / "nats" / "nats-server.conf").read_text()
        log = (tmp_path / "nats" / "nats-server.log").read_text()
    assert "sync_interval: always" in config
    assert "nats-server.conf" in log  # the server read the file
    assert oct((tmp_path / "nats" / "nats-server.conf").stat().st_mode & 0o777) == "0o600"
