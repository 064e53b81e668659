"""The five services, composed for the embedded runtime (one process, adapters built once and shared)."""

from __future__ import annotations

from collections.abc import Mapping

from sextant.bus import ServiceSpec


def all_services(env: Mapping[str, str]) -> list[ServiceSpec]:
    """Every service's router spec, reading settings from ``env``.

    In one process the services still are five independent durable consumers; the heavy adapters
    (the embedded chunk store takes an exclusive lock on its folder, and the embedding model) are
    built once and shared.
    """
    # Imported here: commands that only publish or read must not pay for models and engines.
    from sextant.analyzer import app as analyzer
    from sextant.chunkstore.model_store import store_for_model
    from sextant.embedding import embedder_from_env
    from sextant.indexer import app as indexer
    from sextant.recency_scanner import app as recency_scanner
    from sextant.reviewer import app as reviewer
    from sextant.selector import app as selector

    embedder = embedder_from_env(env)
    store = store_for_model(env, embedder)
    return [
        ServiceSpec(recency_scanner.SERVICE_NAME, recency_scanner.router_factory(env)),
        ServiceSpec(indexer.SERVICE_NAME, indexer.router_factory(env, store=store, embedder=embedder)),
        ServiceSpec(selector.SERVICE_NAME, selector.router_factory(env, store=store)),
        ServiceSpec(analyzer.SERVICE_NAME, analyzer.router_factory(env, store=store)),
        ServiceSpec(reviewer.SERVICE_NAME, reviewer.router_factory(env, store=store, embedder=embedder)),
    ]
