"""The services the embedded runtime hosts, read from their declarations and built on one set of adapters."""

from __future__ import annotations

from collections.abc import Mapping

from sextant.bootstrap import Adapters, bootstrap, embedded_services, host_all
from sextant.bus import ServiceSpec
from sextant.gitsource.repo_reference import ALLOW_LOCAL_REPOS


def all_services(env: Mapping[str, str], adapters: Adapters | None = None) -> list[ServiceSpec]:
    """Every embedded service's router spec, in pipeline order.

    In one process the services still are independent durable consumers; the heavy adapters (the
    embedded chunk store takes an exclusive lock on its folder, and the embedding model) are built
    once and shared.

    Args:
        env: Environment the settings and adapters are read from.
        adapters: Adapters to share (default: ``bootstrap(env)``; the caller then never closes them,
            which is fine only for a process that ends with the run).

    Returns:
        One spec per declared service.
    """
    if not env.get(ALLOW_LOCAL_REPOS):
        # One machine, one user: the embedded runtime reads local paths unless told otherwise.
        env = {**env, ALLOW_LOCAL_REPOS: "true"}
    return host_all(embedded_services(), adapters if adapters is not None else bootstrap(env), env)
