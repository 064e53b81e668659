"""W3C trace context in message headers (and from a CI job's TRACEPARENT)."""

from __future__ import annotations

from collections.abc import Mapping

from opentelemetry.context import Context
from opentelemetry.trace.propagation.tracecontext import TraceContextTextMapPropagator

_PROPAGATOR = TraceContextTextMapPropagator()


def inject_context(headers: dict[str, str]) -> None:
    """Write the current span's ``traceparent`` (and ``tracestate``) into ``headers``."""
    _PROPAGATOR.inject(headers)


def extract_context(carrier: Mapping[str, str]) -> Context:
    """The context a ``traceparent`` in ``carrier`` describes (empty context when none)."""
    return _PROPAGATOR.extract(dict(carrier))
