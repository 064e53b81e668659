"""The five services' routers, composed for the embedded runtime (one process, shared adapters)."""

from __future__ import annotations

from collections.abc import Mapping

from sextant.bus import ServiceSpec
from sextant.recency_scanner import app as recency_scanner


def all_services(env: Mapping[str, str]) -> list[ServiceSpec]:
    """Routers of every service, reading their settings from ``env``.

    In one process the services still are five independent durable consumers; heavy adapters
    (the chunk store and the embedding model) are built once and shared.
    """
    return [ServiceSpec(recency_scanner.SERVICE_NAME, recency_scanner.router_factory(env))]
