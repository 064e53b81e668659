"""A real uvicorn serving the webhook app on a free port, publishing to a real nats-server."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import uvicorn

from sextant.bus import Bus, EmbeddedNats, build_broker
from sextant.contracts import AnyEvent
from sextant.webhooks.app import build_app
from sextant.webhooks.config import WebhookSettings

GITHUB_SECRET = "gh-secret-that-must-never-be-logged"
GITLAB_TOKEN = "gl-token-that-must-never-be-logged"
MAX_BODY = 64 * 1024


@dataclass
class WebhookServer:
    """The running server, an HTTP client for it and a bus to read what it published."""

    url: str
    http: httpx.AsyncClient
    bus: Bus
    nats_url: str

    async def events(self) -> list[AnyEvent]:
        """Every event in the stream, in order."""
        if await self.bus.last_sequence() == 0:
            return []
        return [event async for _, event, _ in self.bus.read() if event is not None]


@pytest.fixture
async def webhook_server(tmp_path: Path) -> AsyncIterator[WebhookServer]:
    """Serve until the test ends; the socket is bound first, so the port is known without waiting."""
    with EmbeddedNats(tmp_path / "nats") as nats:
        settings = WebhookSettings(github_secret=GITHUB_SECRET, gitlab_token=GITLAB_TOKEN, max_body_bytes=MAX_BODY)
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        port = listener.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(build_app(settings, nats.url), log_config=None, access_log=False))
        serving = asyncio.create_task(server.serve(sockets=[listener]))
        bus = Bus(build_broker(nats.url))
        await bus.connect()
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
                yield WebhookServer(url=f"http://127.0.0.1:{port}", http=http, bus=bus, nats_url=nats.url)
        finally:
            await bus.close()
            server.should_exit = True
            await serving
            listener.close()
