"""Wiring only: the selector consumes ChunksIndexed and publishes ChunksSelected (analysis, summary)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sextant.bootstrap import Adapters, HandlerFactory, ServiceDeclaration
from sextant.contracts import ChunksIndexed, ChunksSelected, Event
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
    settings = SelectorSettings.from_env(env)
    store = adapters.store

    async def handle(event: ChunksIndexed) -> Sequence[Event]:
        return await on_chunks_indexed(event, store, settings)

    return lambda bus: handle


SERVICE: ServiceDeclaration[ChunksIndexed] = ServiceDeclaration(
    name=SERVICE_NAME,
    stage=STAGE,
    durable=DURABLE,
    consumes=ChunksIndexed,
    produces=(ChunksSelected,),
    build=build_handler,
    summary="Picks the chunks an analysis and a summary read, from payloads alone.",
)
