"""Run routers against a bus until SIGINT/SIGTERM: one service alone, or all five in one process."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from faststream.nats import NatsRouter

from sextant.bus.broker import build_broker
from sextant.bus.bus import Bus
from sextant.config import env_str, redacted_url
from sextant.telemetry import ServiceTracing, configure_logging, install

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
        url: NATS URL.
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


def run_service(name: str, factory: RouterFactory, env: Mapping[str, str]) -> None:
    """Entry point of ``python -m sextant.<service>``: one service alone against ``NATS_URL``.

    Args:
        name: Service name (logs, traces).
        factory: Builds the service's router given the bus.
        env: The environment (NATS_URL, LOG_LEVEL).
    """
    configure_logging(env_str(env, "LOG_LEVEL", "INFO") or "INFO")
    tracing = ServiceTracing(env)
    install(tracing)
    url = env_str(env, "NATS_URL")
    if url is None:
        # Joining whatever happens to listen on the default port would be a silent surprise.
        raise SystemExit(f"{name}: NATS_URL is not set (e.g. NATS_URL=nats://nats:4222)")
    try:
        asyncio.run(serve(url, [ServiceSpec(name, factory)], name=name))
    finally:
        tracing.shutdown()
