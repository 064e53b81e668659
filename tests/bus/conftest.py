"""Real nats-server per test (port 0, temp store) and a connected bus."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from sextant.bus import Bus, EmbeddedNats, build_broker


@pytest.fixture
def nats_url(tmp_path: Path) -> Iterator[str]:
    with EmbeddedNats(tmp_path / "nats") as server:
        yield server.url


@pytest.fixture
async def bus(nats_url: str) -> AsyncIterator[Bus]:
    bus = Bus(build_broker(nats_url))
    await bus.connect()
    yield bus
    await bus.close()
