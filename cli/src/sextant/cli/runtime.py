"""Find or start the bus: NATS_URL, a `sextant up` already running here, or an in-process embedded one."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from sextant.bus import Bus, EmbeddedNats, ServiceSpec, build_broker, start_routers
from sextant.config import env_str, sextant_home

RUNTIME_FILE = "runtime.json"


@dataclass(frozen=True)
class RuntimeRecord:
    """What a running `sextant up` leaves in SEXTANT_HOME so other commands can find it."""

    url: str
    pid: int


def read_runtime_record(home: Path) -> RuntimeRecord | None:
    """The record of a live `sextant up` in this home, or None (missing, stale or unreadable)."""
    try:
        data = json.loads((home / RUNTIME_FILE).read_text())
        record = RuntimeRecord(url=str(data["url"]), pid=int(data["pid"]))
    except (OSError, ValueError, KeyError, TypeError):
        return None
    try:
        os.kill(record.pid, 0)
    except OSError:
        return None
    return record


def write_runtime_record(home: Path, url: str) -> None:
    """Record this process as the running `sextant up`."""
    home.mkdir(parents=True, exist_ok=True)
    (home / RUNTIME_FILE).write_text(json.dumps({"url": url, "pid": os.getpid()}))


def remove_runtime_record(home: Path) -> None:
    """Forget the record (on clean shutdown)."""
    with contextlib.suppress(OSError):
        (home / RUNTIME_FILE).unlink()


@dataclass
class Session:
    """A connected bus, and whether the services run inside this process."""

    bus: Bus
    url: str
    hosts_services: bool
    home: Path


@contextlib.asynccontextmanager
async def open_session(
    env: Mapping[str, str],
    *,
    services: Callable[[], Sequence[ServiceSpec]] | None = None,
    always_host: bool = False,
) -> AsyncIterator[Session]:
    """Connect to the bus the way every CLI command does.

    Order: ``NATS_URL`` when set; else the ``sextant up`` recorded in SEXTANT_HOME; else start the
    embedded runtime (nats-server + the given services) in this process for the duration.

    Args:
        env: The environment.
        services: Builds the services to host when this process starts the embedded runtime
            (called only then; None for commands that only read or publish).
        always_host: Host the services even on an external bus (``sextant up``), and never defer
            to another ``sextant up``.

    Yields:
        The session.
    """
    home = sextant_home(env)
    url = env_str(env, "NATS_URL")
    if url is None and not always_host:
        record = read_runtime_record(home)
        url = record.url if record else None
    server: EmbeddedNats | None = None
    if url is None:
        server = EmbeddedNats(home / "nats")
        url = server.start()
    bus = Bus(build_broker(url))
    hosts = services is not None and (server is not None or always_host)
    try:
        if services is not None and hosts:
            await start_routers(bus, services())
        else:
            await bus.connect()
        yield Session(bus=bus, url=url, hosts_services=hosts, home=home)
    finally:
        await bus.close()
        if server is not None:
            server.stop()
