"""Wiring only: the webhook app on a bus connection to NATS_URL, served by uvicorn."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping

import uvicorn
from starlette.applications import Starlette

from sextant.bus import Bus, build_broker
from sextant.webhooks.config import WebhookSettings
from sextant.webhooks.http_app import create_app

SERVICE_NAME = "webhooks"


def build_app(settings: WebhookSettings, nats_url: str) -> Starlette:
    """The app, publishing to the NATS server at ``nats_url`` (connected for the server's life).

    Args:
        settings: Webhook settings.
        nats_url: The bus.

    Returns:
        The ASGI app.
    """
    bus = Bus(build_broker(nats_url), service=SERVICE_NAME)

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        await bus.connect()
        try:
            yield
        finally:
            await bus.close()

    return create_app(settings, bus, lifespan=lifespan)


def serve(env: Mapping[str, str], nats_url: str) -> None:
    """Run the webhook server until stopped (uvicorn handles SIGINT/SIGTERM and drains requests).

    Args:
        env: The environment (WEBHOOK_*).
        nats_url: The bus.
    """
    settings = WebhookSettings.from_env(env)
    app = build_app(settings, nats_url)
    uvicorn.run(app, host=settings.host, port=settings.port, log_config=None, access_log=False)
