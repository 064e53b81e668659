"""Build the FastStream NATS broker every service shares (one per process), with connection events logged."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from faststream.nats import NatsBroker

from sextant.bus.connection import NatsConnectionSettings, nats_connection_settings
from sextant.config import redacted_url

logger = logging.getLogger(__name__)

BROKER_LOGGER = logging.getLogger("sextant.bus.faststream")
"""FastStream's own log lines (subscriber errors, connection state); per-message lines are DEBUG."""


def build_broker(
    url: str,
    *,
    middlewares: Sequence[Any] = (),
    env: Mapping[str, str] | None = None,
    settings: NatsConnectionSettings | None = None,
) -> NatsBroker:
    """A NATS broker for ``url`` that logs disconnects, reconnects and errors (credentials redacted).

    Args:
        url: NATS server URL(s), comma-separated for a cluster. Credentials belong in the
            environment (see ``sextant.bus.connection``), not here.
        middlewares: Broker middlewares, e.g. FastStream's NatsTelemetryMiddleware.
        env: Where to read NATS_CREDS, NATS_NKEY, NATS_USER/NATS_PASSWORD, NATS_TOKEN, NATS_CA,
            NATS_CERT and NATS_KEY (None: this process's environment).
        settings: Credentials and TLS already read (instead of ``env``).

    Returns:
        An unstarted broker.

    Raises:
        NatsSettingsError: when the NATS_* variables contradict each other.
    """
    security = (settings or nats_connection_settings(env)).broker_security()
    shown = redacted_url(url)
    broker: NatsBroker | None = None

    def reconnecting() -> bool:
        with contextlib.suppress(Exception):  # no connection yet, or already gone: not reconnecting
            return broker is not None and bool(broker.connection.is_reconnecting)
        return False

    async def on_disconnected() -> None:
        if reconnecting():  # a close we asked for also calls this; only a lost connection is news
            logger.warning("disconnected from NATS %s; reconnecting", shown)

    async def on_reconnected() -> None:
        logger.warning("reconnected to NATS %s", shown)

    async def on_error(error: Exception) -> None:
        logger.warning("NATS connection error on %s: %s", shown, _redacted_text(str(error)) or type(error).__name__)

    broker = NatsBroker(
        url.split(","),
        middlewares=tuple(middlewares),
        graceful_timeout=30.0,
        logger=BROKER_LOGGER,
        log_level=logging.DEBUG,
        disconnected_cb=on_disconnected,
        reconnected_cb=on_reconnected,
        error_cb=on_error,
        security=security,
    )
    return broker


def _redacted_text(text: str) -> str:
    """Free text (an error message) with any URL in it shown without credentials."""
    return " ".join(redacted_url(word) if "://" in word else word for word in text.split(" "))
