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
    env = local_machine_env(env)
    return host_all(embedded_services(), adapters if adapters is not None else bootstrap(env), env)


def local_machine_env(env: Mapping[str, str]) -> Mapping[str, str]:
    """The environment of a process serving one user on one machine: it reads local paths unless told otherwise.

    Args:
        env: The environment.

    Returns:
        The environment, with SEXTANT_ALLOW_LOCAL_REPOS true unless it is set.
    """
    if env.get(ALLOW_LOCAL_REPOS):
        return env
    return {**env, ALLOW_LOCAL_REPOS: "true"}
