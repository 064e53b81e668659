"""Turn declarations into routers on a bus: the embedded runtime, one service alone, or a document."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from faststream.nats import NatsRouter

from sextant.bootstrap.adapters import Adapters, bootstrap
from sextant.bootstrap.declaration import AnyDeclaration, HandlerFactory
from sextant.bus import Bus, ServiceSpec, consume, serve
from sextant.config import env_str
from sextant.contracts import event_name, subject_pattern
from sextant.telemetry import ServiceTracing, configure_logging, install

USAGE_EXIT_STATUS = 2
"""Exit status of a service process that cannot start as configured (a usage error, not a crash)."""


def service_spec(declaration: AnyDeclaration, handler: HandlerFactory[Any]) -> ServiceSpec:
    """The service's router spec: its durable consumer, and the subjects it publishes on.

    Args:
        declaration: The service.
        handler: Builds the delivery handler given the bus.

    Returns:
        A spec whose ``build(bus)`` returns the service's router.
    """

    def build(bus: Bus) -> NatsRouter:
        router = bus.router()
        consume(
            router,
            bus,
            event_type=declaration.consumes,
            durable=declaration.durable,
            stage=declaration.stage,
            handle=handler(bus),
        )
        for produced in declaration.produces:
            # Outputs go through Bus.publish; these publishers are declared so that the AsyncAPI
            # document, which is read from the broker, shows what each service sends.
            router.publisher(
                subject_pattern(produced),
                title=f"{declaration.name}:{produced.__name__}",
                description=f"{declaration.name} publishes {event_name(produced)}",
            )
        return router

    return ServiceSpec(declaration.name, build)


def host(declaration: AnyDeclaration, adapters: Adapters, env: Mapping[str, str]) -> ServiceSpec:
    """Build the service's handler from the adapters and its settings, and wrap it in a spec.

    Args:
        declaration: The service.
        adapters: Shared adapters (built on first use).
        env: The environment its settings are read from.

    Returns:
        The spec to start on a bus.
    """
    return service_spec(declaration, declaration.build(adapters, env))


def host_all(declarations: Sequence[AnyDeclaration], adapters: Adapters, env: Mapping[str, str]) -> list[ServiceSpec]:
    """Specs for several services sharing one set of adapters (the embedded runtime).

    Args:
        declarations: The services.
        adapters: Shared adapters.
        env: The environment.

    Returns:
        One spec per service, in the order given.
    """
    return [host(declaration, adapters, env) for declaration in declarations]


def run_declared_service(declaration: AnyDeclaration, env: Mapping[str, str]) -> None:
    """Entry point of ``python -m sextant.<service>``: one service alone on the bus NATS_URL names.

    A service process never guesses a bus: without NATS_URL it exits with status 2 and one line,
    rather than joining whatever happens to listen on the default port (only the embedded runtime
    starts a bus of its own).

    Args:
        declaration: The service to run.
        env: The environment (NATS_URL, LOG_LEVEL, adapter and settings variables).
    """
    configure_logging(env_str(env, "LOG_LEVEL", "INFO") or "INFO")
    url = env_str(env, "NATS_URL")
    if url is None:
        print(  # noqa: T201 — the one line a person starting the service reads
            f"sextant.{declaration.stage}: NATS_URL is not set; point it at the NATS server this service "
            "should consume from (e.g. NATS_URL=nats://nats:4222), or run `sextant up` for the embedded runtime",
            file=sys.stderr,
        )
        raise SystemExit(USAGE_EXIT_STATUS)
    tracing = ServiceTracing(env)
    install(tracing)
    adapters = bootstrap(env)
    try:
        spec = host(declaration, adapters, env)
        asyncio.run(serve(url, [spec], name=declaration.name))
    finally:
        adapters.close()
        tracing.shutdown()
