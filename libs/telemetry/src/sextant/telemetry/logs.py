"""Log lines carry the trace id, so a line in a log leads to its trace in Jaeger."""

from __future__ import annotations

import logging

from opentelemetry import trace

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s [trace=%(trace_id)s] %(message)s"


class TraceIdLogFilter(logging.Filter):
    """Adds ``trace_id`` (32 hex characters, or "-") to every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        context = trace.get_current_span().get_span_context()
        record.trace_id = format(context.trace_id, "032x") if context.is_valid else "-"
        return True


def configure_logging(level: str) -> None:
    """Root logging with the trace id in every line."""
    handler = logging.StreamHandler()
    handler.addFilter(TraceIdLogFilter())
    handler.setFormatter(logging.Formatter(LOG_FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
