"""Wiring only: the selector consumes ChunksIndexed and publishes ChunksSelected (analysis, summary)."""

from __future__ import annotations

from collections.abc import Mapping

from sextant.bootstrap import Adapters, HandlerFactory, ServiceDeclaration, handler_calling
from sextant.contracts import ChunksIndexed, ChunksSelected
from sextant.selector.config import SelectorSettings
from sextant.selector.handlers import on_chunks_indexed

SERVICE_NAME = "selector"
STAGE = "selector"
DURABLE = "selector"


def build_handler(adapters: Adapters, env: Mapping[str, str]) -> HandlerFactory[ChunksIndexed]:
    """The selector's handler over the shared chunk store.

    Args:
        adapters: Shared adapters (the store).
        env: Environment the settings are read from.

    Returns:
        ``bus -> handler``.
    """
    return handler_calling(on_chunks_indexed, adapters.store, SelectorSettings.from_env(env))


SERVICE: ServiceDeclaration[ChunksIndexed] = ServiceDeclaration(
    name=SERVICE_NAME,
    stage=STAGE,
    durable=DURABLE,
    consumes=ChunksIndexed,
    produces=(ChunksSelected,),
    build=build_handler,
    summary="Picks the chunks an analysis and a summary read, from payloads alone.",
)
