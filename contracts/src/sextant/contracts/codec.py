"""Encoding and decoding events: JSON on the wire, one decoder for the whole union."""

from __future__ import annotations

from typing import Any

import msgspec

from sextant.contracts import events
from sextant.contracts.envelope import RepoRef
from sextant.contracts.events import EVENT_TYPES, AnyEvent
from sextant.contracts.field_docs import field_docstrings

_encoder = msgspec.json.Encoder()
_decoder: msgspec.json.Decoder[AnyEvent] = msgspec.json.Decoder(AnyEvent)


class EventDecodeError(ValueError):
    """A message is not a Sextant event this version understands (malformed or unknown type)."""


def encode_event(event: msgspec.Struct) -> bytes:
    """Serialise an event to JSON bytes."""
    return _encoder.encode(event)


def decode_event(data: bytes) -> AnyEvent:
    """Decode JSON bytes into the event they describe.

    Unknown fields are ignored (newer producers may add fields); an unknown event type or a
    malformed body raises EventDecodeError instead of crashing the consumer.

    Args:
        data: The message body.

    Returns:
        The decoded event.
    """
    try:
        return _decoder.decode(data)
    except msgspec.DecodeError as error:
        raise EventDecodeError(str(error)) from error


def event_json_schema() -> dict[str, Any]:
    """JSON Schema of every event (what a subscriber's author reads), each field described."""
    _, components = msgspec.json.schema_components(EVENT_TYPES, ref_template="#/$defs/{name}")
    for struct_type in _documented_types():
        properties = components.get(struct_type.__name__, {}).get("properties", {})
        for field, doc in field_docstrings(struct_type).items():
            if field in properties:
                properties[field]["description"] = doc
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Sextant events",
        "oneOf": [{"$ref": f"#/$defs/{t.__name__}"} for t in EVENT_TYPES],
        "$defs": components,
    }


def _documented_types() -> list[type]:
    nested = [obj for obj in vars(events).values() if isinstance(obj, type) and issubclass(obj, msgspec.Struct)]
    return [RepoRef, *nested]
