"""Wiring only: the recency scanner consumes RepoUpdated and publishes FileRecencyComputed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from sextant.bootstrap import Adapters, HandlerFactory, ServiceDeclaration, handler_calling
from sextant.contracts import FileRecencyComputed, RepoUpdated
from sextant.recency_scanner.config import RecencySettings
from sextant.recency_scanner.handlers import on_repo_updated

SERVICE_NAME = "recency-scanner"
STAGE = "recency_scanner"
DURABLE = "recency_scanner"


def build_handler(adapters: Adapters, env: Mapping[str, str]) -> HandlerFactory[RepoUpdated]:
    """The scanner's handler: settings read once, git tokens from the adapters.

    Args:
        adapters: Shared adapters (only the token lookup is used).
        env: Environment the settings are read from.

    Returns:
        ``bus -> handler``.
    """
    return handler_calling(on_repo_updated, replace(RecencySettings.from_env(env), tokens=adapters.tokens))


SERVICE: ServiceDeclaration[RepoUpdated] = ServiceDeclaration(
    name=SERVICE_NAME,
    stage=STAGE,
    durable=DURABLE,
    consumes=RepoUpdated,
    produces=(FileRecencyComputed,),
    build=build_handler,
    summary="Reads git history once per push: the last commit date of every file.",
)
