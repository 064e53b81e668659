"""The five services' routers, composed for the embedded runtime (one process, shared adapters)."""

from __future__ import annotations

from collections.abc import Mapping

from sextant.bus import RouterFactory
from sextant.recency_scanner.app import router_factory as recency_router


def all_router_factories(env: Mapping[str, str]) -> list[RouterFactory]:
    """Routers of every service, reading their settings from ``env``.

    In one process the services still are five independent durable consumers; heavy adapters
    (the chunk store and the embedding model) are built once and shared.
    """
    return [recency_router(env)]
