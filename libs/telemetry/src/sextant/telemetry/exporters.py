"""Which span exporters the standard OpenTelemetry variables ask for, and how to build them.

OTEL_TRACES_EXPORTER: ``otlp``, ``console`` or ``none`` (comma-separated; unset means ``otlp`` when an
OTLP endpoint is set, else nothing). OTEL_EXPORTER_OTLP_PROTOCOL (or the ``_TRACES_`` variant):
``http/protobuf`` (default) or ``grpc`` (needs the ``sextant-telemetry[grpc]`` extra). Export never
holds a command up for long: one export attempt may take EXPORT_TIMEOUT_SECONDS, and the flush at
exit is bounded by the same budget.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from opentelemetry.sdk.trace import SpanProcessor
from opentelemetry.sdk.trace.export import BatchSpanProcessor, ConsoleSpanExporter, SimpleSpanProcessor

from sextant.config import ConfigError, env_str

EXPORT_TIMEOUT_SECONDS = 1.0
"""Longest one export may take: a collector that is down costs a command at most about this."""
SPAN_QUEUE_SIZE = 16_384
"""BatchSpanProcessor queue: the default 2048 dropped spans in bursts of a large run."""
EXPORTERS = ("otlp", "console", "none")
PROTOCOLS = ("http/protobuf", "grpc")
DEFAULT_ENDPOINTS = {"http/protobuf": "http://localhost:4318", "grpc": "http://localhost:4317"}
"""The OpenTelemetry defaults, used when OTEL_TRACES_EXPORTER=otlp names no endpoint."""

ProcessorFactory = Callable[[], SpanProcessor]


def chosen_exporters(env: Mapping[str, str]) -> list[str]:
    """The exporters asked for, in order, without ``none``.

    Args:
        env: Environment variables.

    Returns:
        Exporter names (possibly empty: nothing leaves the process).

    Raises:
        ConfigError: for a name other than otlp, console or none.
    """
    raw = env_str(env, "OTEL_TRACES_EXPORTER")
    if raw is None:
        return ["otlp"] if _endpoint(env) else []
    names = [part.strip().lower() for part in raw.split(",") if part.strip()]
    unknown = [name for name in names if name not in EXPORTERS]
    if unknown:
        raise ConfigError(f"OTEL_TRACES_EXPORTER={raw!r}: use {', '.join(EXPORTERS)}")
    return [name for name in names if name != "none"]


def _endpoint(env: Mapping[str, str]) -> str | None:
    return env_str(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") or env_str(env, "OTEL_EXPORTER_OTLP_ENDPOINT")


def otlp_protocol(env: Mapping[str, str]) -> str:
    """The OTLP transport asked for.

    Args:
        env: Environment variables.

    Returns:
        ``http/protobuf`` or ``grpc``.

    Raises:
        ConfigError: for another protocol (``http/json`` has no Python exporter).
    """
    raw = env_str(env, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") or env_str(env, "OTEL_EXPORTER_OTLP_PROTOCOL")
    protocol = (raw or "http/protobuf").lower()
    if protocol not in PROTOCOLS:
        raise ConfigError(f"OTEL_EXPORTER_OTLP_PROTOCOL={raw!r}: use http/protobuf or grpc")
    return protocol


def _otlp_http(env: Mapping[str, str]) -> SpanProcessor:
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

    traces = env_str(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
    base = (env_str(env, "OTEL_EXPORTER_OTLP_ENDPOINT") or DEFAULT_ENDPOINTS["http/protobuf"]).rstrip("/")
    exporter = OTLPSpanExporter(endpoint=traces or f"{base}/v1/traces", timeout=EXPORT_TIMEOUT_SECONDS)
    return _batch(exporter)


def _require_grpc() -> None:
    try:
        import opentelemetry.exporter.otlp.proto.grpc.trace_exporter  # noqa: F401 — only checked here
    except ImportError:
        raise ConfigError(
            "OTEL_EXPORTER_OTLP_PROTOCOL=grpc needs the gRPC exporter: install sextant-telemetry[grpc] "
            "(or use http/protobuf, which every collector and Jaeger accept on port 4318)"
        ) from None


def _otlp_grpc(env: Mapping[str, str]) -> SpanProcessor:
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

    endpoint = _endpoint(env) or DEFAULT_ENDPOINTS["grpc"]
    return _batch(OTLPSpanExporter(endpoint=endpoint, timeout=EXPORT_TIMEOUT_SECONDS))


def _batch(exporter: object) -> SpanProcessor:
    return BatchSpanProcessor(
        exporter,  # type: ignore[arg-type]  # both OTLP exporters are SpanExporters
        max_queue_size=SPAN_QUEUE_SIZE,
        export_timeout_millis=int(EXPORT_TIMEOUT_SECONDS * 1000),
    )


def processor_factories(env: Mapping[str, str]) -> list[ProcessorFactory]:
    """One factory per exporter asked for (each service's provider gets its own processors).

    Args:
        env: Environment variables.

    Returns:
        Factories building the span processors.

    Raises:
        ConfigError: for an unknown exporter or protocol, or grpc without its extra installed.
    """
    factories: list[ProcessorFactory] = []
    for name in chosen_exporters(env):
        if name == "console":
            factories.append(lambda: SimpleSpanProcessor(ConsoleSpanExporter()))
        elif otlp_protocol(env) == "grpc":
            _require_grpc()  # fail at start-up with one clear line, not at the first span
            factories.append(lambda: _otlp_grpc(env))
        else:
            factories.append(lambda: _otlp_http(env))
    return factories
