"""Build the FastStream NATS broker every service shares (one per process)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from faststream.nats import NatsBroker

DEFAULT_NATS_URL = "nats://127.0.0.1:4222"


def build_broker(url: str, *, middlewares: Sequence[Any] = ()) -> NatsBroker:
    """A NATS broker for ``url``; telemetry middleware is passed in by the caller (sextant.telemetry).

    Args:
        url: NATS server URL (credentials, if any, belong in NATS_CREDS or a creds file, not here).
        middlewares: Broker middlewares, e.g. FastStream's NatsTelemetryMiddleware.

    Returns:
        An unstarted broker.
    """
    return NatsBroker(url, middlewares=tuple(middlewares), graceful_timeout=30.0, logger=None)
