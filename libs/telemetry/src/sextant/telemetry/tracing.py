"""Tracer providers per service, and tracers that follow the service currently handling a message.

In the embedded runtime five services share one process; each still reports under its own
``service.name``. Code anywhere (libs included) asks ``tracer(__name__)``; the span goes to the provider
of the service that is handling the current message (a context variable that follows asyncio tasks
and ``asyncio.to_thread``), so Jaeger shows five services either way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from typing import Any

from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import SpanProcessor, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor

DEFAULT_SERVICE = "sextant-cli"
SPAN_QUEUE_SIZE = 16_384
"""BatchSpanProcessor queue: the default 2048 dropped spans in bursts (PLATFORM.md)."""

_acting_service: ContextVar[str | None] = ContextVar("sextant_acting_service", default=None)
_installed: ServiceTracing | None = None

ProcessorFactory = Callable[[], SpanProcessor]


def otlp_configured(env: Mapping[str, str]) -> bool:
    """Whether the standard OTEL variables ask for OTLP export."""
    return any(
        env.get(name, "").strip() for name in ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    ) and env.get("OTEL_TRACES_EXPORTER", "otlp").strip().lower() not in {"none", ""}


def _otlp_processor(env: Mapping[str, str]) -> ProcessorFactory:
    def build() -> SpanProcessor:
        # The exporter reads the other OTEL_EXPORTER_OTLP_* variables (headers, timeout) itself; the
        # endpoint is passed from the settings we were given, so they are the ones that count.
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        traces = env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "").strip()
        base = env.get("OTEL_EXPORTER_OTLP_ENDPOINT", "").strip().rstrip("/")
        endpoint = traces or f"{base}/v1/traces"
        return BatchSpanProcessor(OTLPSpanExporter(endpoint=endpoint), max_queue_size=SPAN_QUEUE_SIZE)

    return build


class ServiceTracing:
    """One TracerProvider per service name; each gets the configured span processors.

    Args:
        env: Environment (OTEL_EXPORTER_OTLP_ENDPOINT and friends). Unset: nothing is exported.
        processors: Extra processor factories (tests add an in-memory exporter this way).
    """

    def __init__(self, env: Mapping[str, str], *, processors: Sequence[ProcessorFactory] = ()) -> None:
        factories = list(processors)
        if otlp_configured(env):
            factories.append(_otlp_processor(env))
        self._factories = factories
        self._providers: dict[str, TracerProvider] = {}

    @property
    def exporting(self) -> bool:
        """Whether any span leaves the process."""
        return bool(self._factories)

    def provider(self, service: str) -> TracerProvider:
        """The provider that reports as ``service`` (created on first use)."""
        if service not in self._providers:
            provider = TracerProvider(
                resource=Resource.create({"service.name": service, "service.namespace": "sextant"})
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

    def shutdown(self) -> None:
        """Flush and stop every provider."""
        for provider in self._providers.values():
            provider.shutdown()
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
