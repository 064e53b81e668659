"""Find or start the bus: NATS_URL, a `sextant up` already running here, or an in-process embedded one."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sextant.bootstrap import Adapters, bootstrap
from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.cli.home_lock import HomeBusyError, HomeLock
from sextant.cli.services import all_services
from sextant.cli.usage_problem import UsageError
from sextant.config import env_str, private_folder, redacted_url, sextant_home

RUNTIME_FILE = "runtime.json"
BUS_CONNECTION_LOGGER = "sextant.bus.broker"
"""The logger the bus reports connection errors, disconnects and reconnects on."""
NATS_CONNECT_DEADLINE_SECONDS = 8.0
"""How long a command tries to reach NATS before saying it cannot (a person is waiting)."""

RuntimeKind = Literal["up", "command"]
"""``up``: a long-lived `sextant up` other commands attach to; ``command``: one command's own run."""


class RunInProgressError(UsageError):
    """Another command hosts this SEXTANT_HOME's embedded runtime for its own run."""


@dataclass(frozen=True)
class RuntimeRecord:
    """What the process hosting a runtime leaves in SEXTANT_HOME so other commands can find it."""

    url: str
    """Client URL, without credentials."""
    pid: int
    """The hosting process."""
    kind: RuntimeKind = "up"
    """Whether other commands may attach to it."""


def read_runtime_record(home: Path) -> RuntimeRecord | None:
    """The record of a live runtime in this home, or None (missing, stale or unreadable).

    Args:
        home: SEXTANT_HOME.

    Returns:
        The record when its process is still alive.
    """
    try:
        data = json.loads((home / RUNTIME_FILE).read_text())
        kind: RuntimeKind = "command" if data.get("kind") == "command" else "up"
        record = RuntimeRecord(url=str(data["url"]), pid=int(data["pid"]), kind=kind)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    try:
        os.kill(record.pid, 0)
    except OSError:
        return None
    return record


def write_runtime_record(home: Path, url: str, *, kind: RuntimeKind = "up") -> None:
    """Record this process as the one hosting the runtime (owner-only file, URL without credentials).

    Args:
        home: SEXTANT_HOME.
        url: The bus URL (userinfo is redacted before it is written).
        kind: Whether other commands may attach.
    """
    private_folder(home)
    record = {"url": redacted_url(url), "pid": os.getpid(), "kind": kind}
    staging = home / f".{RUNTIME_FILE}.{os.getpid()}"
    fd = os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        json.dump(record, out)
    staging.replace(home / RUNTIME_FILE)


def remove_runtime_record(home: Path) -> None:
    """Forget the record (on clean shutdown), if it is still ours.

    Args:
        home: SEXTANT_HOME.
    """
    record = read_runtime_record(home)
    if record is None or record.pid == os.getpid():
        with contextlib.suppress(OSError):
            (home / RUNTIME_FILE).unlink()


@dataclass
class Session:
    """A connected bus, and whether the services run inside this process."""

    bus: Bus
    url: str
    """The bus URL, safe to print (no credentials)."""
    hosts_services: bool
    home: Path
    embedded: bool = False
    """Whether this process started the bus (then it stops with the command)."""


def _busy_message(home: Path) -> str:
    record = read_runtime_record(home)
    who = f" (pid {record.pid})" if record else ""
    return (
        f"another sextant command{who} is running in {home}; wait for it to finish, or run `sextant up` "
        "there so commands share one runtime (or give this one its own SEXTANT_HOME)"
    )


async def _close_quietly(bus: Bus) -> None:
    """Close the bus; the client reports an intentional close as a disconnect, which is not news."""
    connection_log = logging.getLogger(BUS_CONNECTION_LOGGER)
    level = connection_log.level
    connection_log.setLevel(max(level, logging.ERROR))
    try:
        await bus.close()
    finally:
        connection_log.setLevel(level)


async def _connect(bus: Bus, url: str) -> None:
    """Connect within a deadline: the client otherwise retries an unreachable server for minutes."""
    connection_log = logging.getLogger(BUS_CONNECTION_LOGGER)
    quiet = connection_log.level
    # While connecting, the one line below says everything; the client's per-attempt warnings would
    # bury it. Once connected, disconnects and reconnects are logged as usual.
    connection_log.setLevel(max(quiet, logging.ERROR))
    try:
        await asyncio.wait_for(bus.connect(), NATS_CONNECT_DEADLINE_SECONDS)
    except TimeoutError:
        raise UsageError(
            f"cannot reach NATS at {redacted_url(url)} within {NATS_CONNECT_DEADLINE_SECONDS:.0f} s: check NATS_URL "
            "(or unset it to use the embedded runtime)"
        ) from None
    except OSError as error:
        raise UsageError(f"cannot reach NATS at {redacted_url(url)}: {error.strerror or error}") from None
    finally:
        connection_log.setLevel(quiet)


@contextlib.asynccontextmanager
async def open_session(
    env: Mapping[str, str],
    *,
    host: bool = False,
    always_host: bool = False,
    adapters: Adapters | None = None,
    embedded: bool = True,
) -> AsyncIterator[Session]:
    """Connect to the bus the way every CLI command does.

    Order: ``NATS_URL`` when set; else the ``sextant up`` recorded in SEXTANT_HOME; else start the
    embedded runtime (nats-server, plus the services when ``host``) in this process for the duration.
    Only one process at a time hosts a home's embedded runtime.

    Args:
        env: The environment.
        host: Host the services when this process starts the embedded runtime (commands that only
            read or publish leave it False).
        always_host: Host the services even on an external bus (``sextant up``), and never defer
            to another ``sextant up``.
        adapters: Adapters for hosted services (default: ``bootstrap(env)``, closed at the end).
        embedded: Whether starting the embedded runtime is acceptable (CI publishing says no: an
            event stored in a throwaway store would be lost without anyone noticing).

    Yields:
        The session.

    Raises:
        RunInProgressError: when another command hosts this home's runtime.
        UsageError: when the embedded runtime is needed but not acceptable, or NATS is unreachable.
    """
    home = sextant_home(env)
    url = env_str(env, "NATS_URL")
    if url is None and not always_host:
        record = read_runtime_record(home)
        if record is not None and record.kind == "up":
            url = record.url
    async with contextlib.AsyncExitStack() as stack:
        server: EmbeddedNats | None = None
        if url is None or always_host:
            lock = HomeLock(home)
            try:
                lock.acquire()
            except HomeBusyError:
                raise RunInProgressError(_busy_message(home)) from None
            stack.callback(lock.release)
        if url is None and not embedded:
            raise UsageError(
                "NATS_URL is not set: point it at the NATS server your Sextant deployment consumes from "
                "(an event published into a throwaway embedded store here would never be processed)"
            )
        if url is None:
            server = EmbeddedNats(home / "nats")
            url = server.start()
            stack.callback(server.stop)
        hosts = always_host or (host and server is not None)
        shared = adapters if adapters is not None else bootstrap(env)  # builds nothing until asked
        if hosts and adapters is None:
            # Registered before the bus: the bus closes first (consumers stop, deliveries in flight
            # settle or give their work back), and only then the store the handlers write.
            stack.callback(shared.close)
        bus = Bus(build_broker(url))
        stack.push_async_callback(_close_quietly, bus)
        await _connect(bus, url)
        if hosts:
            await start_routers(bus, all_services(env, shared))
            # Recorded only once the stream and the consumers exist: a command that attaches on
            # seeing the record may publish at once.
            write_runtime_record(home, url, kind="up" if always_host else "command")
            stack.callback(remove_runtime_record, home)
        try:
            yield Session(bus=bus, url=redacted_url(url), hosts_services=hosts, home=home, embedded=server is not None)
        except (asyncio.CancelledError, KeyboardInterrupt):
            # Ctrl-C: handlers in flight are cut short while the bus drains, and each says so in a log
            # line with a traceback. The person asked for the stop; what was not acknowledged is
            # redelivered next time, so those lines are noise (only critical ones still show).
            logging.disable(logging.ERROR)
            raise
