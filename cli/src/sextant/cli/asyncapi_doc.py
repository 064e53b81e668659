"""The AsyncAPI document: FastStream's description of every subscription plus our event schemas."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from faststream.specification import AsyncAPI

from sextant.bus import Bus, build_broker
from sextant.bus.broker import DEFAULT_NATS_URL
from sextant.cli.services import all_services
from sextant.contracts import event_json_schema


def asyncapi_document(env: Mapping[str, str]) -> dict[str, Any]:
    """Build the document without connecting to anything."""
    bus = Bus(build_broker(DEFAULT_NATS_URL))
    for service in all_services(env):
        bus.broker.include_router(service.build(bus.for_service(service.name)))
    spec = AsyncAPI(bus.broker, title="Sextant", version="0.1.0", description="Sextant's events on NATS JetStream")
    document: dict[str, Any] = spec.to_specification().to_jsonable()
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(event_json_schema()["$defs"])
    return document
