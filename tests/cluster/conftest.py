"""A 3-node NATS JetStream cluster on loopback: free ports, temporary stores, routes between all three."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from sextant.bus import EmbeddedNats


def free_ports(count: int) -> list[int]:
    """Loopback ports free right now (bound together, so they are distinct)."""
    sockets = [socket.socket() for _ in range(count)]
    for sock in sockets:
        sock.bind(("127.0.0.1", 0))
    ports = [sock.getsockname()[1] for sock in sockets]
    for sock in sockets:
        sock.close()
    return ports


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[list[EmbeddedNats]]:
    routes = free_ports(3)
    nodes = []
    for index, port in enumerate(routes):
        others = ", ".join(f"nats-route://127.0.0.1:{p}" for p in routes if p != port)
        config = (
            f"server_name: n{index}\n"
            f"cluster {{\n  name: sextant\n  listen: 127.0.0.1:{port}\n  routes: [{others}]\n}}\n"
        )
        nodes.append(EmbeddedNats(tmp_path / f"n{index}", extra_config=config))
    try:
        for node in nodes:
            node.start()
        yield nodes
    finally:
        for node in nodes:
            node.stop()
