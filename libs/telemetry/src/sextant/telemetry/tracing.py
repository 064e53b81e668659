"""Tracer providers per service, and tracers that follow the service currently handling a message.

In the embedded runtime five services share one process; each still reports under its own
``service.name``. Code anywhere (libs included) asks ``tracer(__name__)``; the span goes to the provider
of the service that is handling the current message (a context variable that follows asyncio tasks
and ``asyncio.to_thread``), so Jaeger shows five services either way.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider

from sextant.config import env_str
from sextant.telemetry.exporters import (
    EXPORT_TIMEOUT_SECONDS,
    ProcessorFactory,
    chosen_exporters,
    processor_factories,
)

DEFAULT_SERVICE = "sextant-cli"

_acting_service: ContextVar[str | None] = ContextVar("sextant_acting_service", default=None)
_installed: ServiceTracing | None = None


def otlp_configured(env: Mapping[str, str]) -> bool:
    """Whether the standard OTEL variables ask for OTLP export."""
    return "otlp" in chosen_exporters(env)


class ServiceTracing:
    """One TracerProvider per service name; each gets the configured span processors.

    Args:
        env: Environment (OTEL_TRACES_EXPORTER, OTEL_EXPORTER_OTLP_* and OTEL_SERVICE_NAME, see
            sextant.telemetry.exporters). Unset: nothing is exported.
        processors: Extra processor factories (tests add an in-memory exporter this way).

    Raises:
        ConfigError: for an exporter or protocol Sextant cannot use.
    """

    def __init__(self, env: Mapping[str, str], *, processors: Sequence[ProcessorFactory] = ()) -> None:
        self._factories = [*processors, *processor_factories(env)]
        self._providers: dict[str, TracerProvider] = {}
        self.default_service = env_str(env, "OTEL_SERVICE_NAME") or DEFAULT_SERVICE
        """What spans outside any hosted service report as (OTEL_SERVICE_NAME, else sextant-cli)."""

    @property
    def exporting(self) -> bool:
        """Whether any span leaves the process."""
        return bool(self._factories)

    def provider(self, service: str) -> TracerProvider:
        """The provider that reports as ``service`` (created on first use).

        The process's own default name stands for whatever OTEL_SERVICE_NAME says.
        """
        if service == DEFAULT_SERVICE:
            service = self.default_service
        if service not in self._providers:
            provider = TracerProvider(
                resource=Resource.create({"service.name": service, "service.namespace": "sextant"}),
                # Our own shutdown bounds the flush; the SDK's exit hook would wait without a limit.
                shutdown_on_exit=False,
            )
            for factory in self._factories:
                provider.add_span_processor(factory())
            self._providers[service] = provider
        return self._providers[service]

    def tracer_for(self, service: str, name: str) -> trace.Tracer:
        """A tracer of ``service``'s provider."""
        return self.provider(service).get_tracer(name)

    def force_flush(self) -> None:
        """Export everything buffered."""
        for provider in self._providers.values():
            provider.force_flush()

    def shutdown(self, timeout_seconds: float = EXPORT_TIMEOUT_SECONDS) -> None:
        """Flush and stop every provider, all at once, giving up after ``timeout_seconds``.

        A collector that is down must not hold a command up: the providers (one per service) flush
        in parallel threads, and whatever is not exported by the deadline is dropped with the process.

        Args:
            timeout_seconds: The whole flush's budget.
        """
        threads = [threading.Thread(target=provider.shutdown, daemon=True) for provider in self._providers.values()]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + timeout_seconds
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        self._providers.clear()


def install(tracing: ServiceTracing | None) -> None:
    """Make ``tracing`` the one ``tracer()`` reports to (None: tracing off)."""
    global _installed  # noqa: PLW0603 — one process-wide tracing setup, replaced only by tests
    _installed = tracing


def current_tracing() -> ServiceTracing | None:
    """The installed tracing, if any."""
    return _installed


@contextlib.contextmanager
def acting_as(service: str) -> Iterator[None]:
    """Spans started inside this block (and tasks/threads it starts) belong to ``service``."""
    token = _acting_service.set(service)
    try:
        yield
    finally:
        _acting_service.reset(token)


class _ServiceTracer(trace.Tracer):
    """A tracer that resolves, at each span, to the acting service's provider."""

    def __init__(self, name: str) -> None:
        self._name = name

    def _target(self) -> trace.Tracer:
        if _installed is None:
            return trace.NoOpTracer()
        return _installed.tracer_for(_acting_service.get() or DEFAULT_SERVICE, self._name)

    def start_span(self, *args: Any, **kwargs: Any) -> trace.Span:
        return self._target().start_span(*args, **kwargs)

    @contextlib.contextmanager
    def start_as_current_span(  # type: ignore[override]  # same call shape, a plain context manager
        self, *args: Any, **kwargs: Any
    ) -> Iterator[trace.Span]:
        with self._target().start_as_current_span(*args, **kwargs) as span:
            yield span


def tracer(name: str) -> trace.Tracer:
    """The tracer code should use: ``tracer(__name__).start_as_current_span("git log")``."""
    return _ServiceTracer(name)
