"""A real server in a Docker container, for the test tiers marked ``docker``."""

from __future__ import annotations

import shutil
from collections.abc import Iterator

import pytest


def container_url(image: str, port: int, ready_line: str, scheme: str, *command: str) -> Iterator[str]:
    """Run ``image`` (with ``command``) and yield ``scheme://host:port`` once its log shows ``ready_line``.

    Skips the test without testcontainers, a docker client or a usable engine; stops the container after.
    """
    pytest.importorskip("testcontainers", reason="testcontainers is not installed")
    from testcontainers.core.container import DockerContainer
    from testcontainers.core.waiting_utils import wait_for_logs

    if shutil.which("docker") is None:
        pytest.skip("no docker client on PATH")
    try:
        container = DockerContainer(image).with_exposed_ports(port)
        if command:
            container = container.with_command(" ".join(command))
        container.start()
    except Exception as error:  # no engine, no image, no permission: all mean "cannot run here"
        pytest.skip(f"no usable Docker engine: {type(error).__name__}")
    try:
        wait_for_logs(container, ready_line, timeout=60)
        yield f"{scheme}://{container.get_container_host_ip()}:{container.get_exposed_port(port)}"
    finally:
        container.stop()
