"""Run routers against a bus until SIGINT/SIGTERM: one service alone, or all of them in one process.

The NATS URL is always the caller's: nothing here has a default address, so a service never joins
whatever happens to listen on NATS's usual port (the entry points refuse to start without NATS_URL).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from faststream.nats import NatsRouter

from sextant.bus.broker import build_broker
from sextant.bus.bus import Bus
from sextant.config import redacted_url

logger = logging.getLogger(__name__)

RouterFactory = Callable[[Bus], NatsRouter]


@dataclass(frozen=True)
class ServiceSpec:
    """A service to host: its name (``service.name`` in traces) and how to build its router."""

    name: str
    build: RouterFactory


async def start_routers(bus: Bus, services: Sequence[ServiceSpec]) -> None:
    """Include each service's router, connect, declare the stream and start consuming.

    Each router gets a view of the bus acting as its service, so its spans carry its name.
    """
    for service in services:
        bus.broker.include_router(service.build(bus.for_service(service.name)))
    await bus.connect()
    await bus.broker.start()


async def wait_for_stop_signal() -> None:
    """Return on SIGINT or SIGTERM (Ctrl-C in a terminal, `docker stop` in a container)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()


async def serve(url: str, services: Sequence[ServiceSpec], *, name: str) -> None:
    """Serve routers on the NATS server at ``url`` until a stop signal; then drain cleanly.

    Args:
        url: NATS URL(s), comma-separated for a cluster; required, there is no default (logged
            without credentials).
        services: The services to host.
        name: Shown in logs.
    """
    bus = Bus(build_broker(url), service=name)
    await start_routers(bus, services)
    logger.info("%s consuming from %s", name, redacted_url(url))
    try:
        await wait_for_stop_signal()
    finally:
        await bus.close()
        logger.info("%s stopped", name)
