"""OpenTelemetry for every service: per-service tracer providers, OTLP export when configured,
trace context in NATS headers, and trace ids in log lines."""

from sextant.telemetry.logs import TraceIdLogFilter, configure_logging
from sextant.telemetry.propagation import extract_context, inject_context
from sextant.telemetry.tracing import ServiceTracing, acting_as, current_tracing, install, tracer

__all__ = [
    "ServiceTracing",
    "TraceIdLogFilter",
    "acting_as",
    "configure_logging",
    "current_tracing",
    "extract_context",
    "inject_context",
    "install",
    "tracer",
]
