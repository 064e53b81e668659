"""Tracing for the CLI process: the request publish is the root of a run's trace (or continues CI's)."""

from __future__ import annotations

import atexit
import contextlib
from collections.abc import Iterator, Mapping

from opentelemetry import context

from sextant.config import env_str
from sextant.telemetry import ServiceTracing, extract_context, install


def install_tracing(env: Mapping[str, str]) -> ServiceTracing:
    """Install per-service tracing for this process; spans are flushed when it exits."""
    tracing = ServiceTracing(env)
    install(tracing)
    atexit.register(tracing.shutdown)
    return tracing


@contextlib.contextmanager
def continued_trace(env: Mapping[str, str]) -> Iterator[None]:
    """Make a W3C ``TRACEPARENT`` from the environment (a CI job's trace) the parent of what follows."""
    traceparent = env_str(env, "TRACEPARENT")
    if not traceparent:
        yield
        return
    token = context.attach(extract_context({"traceparent": traceparent}))
    try:
        yield
    finally:
        context.detach(token)
