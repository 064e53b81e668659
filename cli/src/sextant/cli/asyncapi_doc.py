"""The AsyncAPI document: every declared service's subscription and publications, with our event schemas."""

from __future__ import annotations

from typing import Any

from faststream.specification import AsyncAPI

from sextant.bootstrap import declared_services, service_spec
from sextant.bus import Bus, EventHandler, build_broker
from sextant.contracts import Event, event_json_schema

DOCUMENT_SERVER = "nats://nats:4222"
"""The server the document names (the compose deployment's); nothing connects to it."""


def _not_run(bus: Bus) -> EventHandler[Event]:
    async def handle(event: Event) -> list[Event]:
        raise RuntimeError("the AsyncAPI document's routers are never started")

    return handle


def asyncapi_document() -> dict[str, Any]:
    """Build the document from the service declarations alone: no adapter is built, nothing connects.

    Returns:
        The AsyncAPI document as JSON-ready data.
    """
    bus = Bus(build_broker(DOCUMENT_SERVER))
    for declaration in declared_services():
        spec = service_spec(declaration, _not_run)
        bus.broker.include_router(spec.build(bus.for_service(declaration.name)))
    spec_document = AsyncAPI(
        bus.broker, title="Sextant", version="0.1.0", description="Sextant's events on NATS JetStream"
    )
    document: dict[str, Any] = spec_document.to_specification().to_jsonable()
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(event_json_schema()["$defs"])
    return document
