"""The payload stored with every chunk point: the one shape the indexer writes and others read."""

from __future__ import annotations

from typing import Literal

import msgspec

SymbolDateSource = Literal["blame", "carried", "file"]


# gc=False on the structs a run makes one of per chunk (here and ChunkPoint): they hold only strings,
# numbers and lists of those, so they can never be part of a reference cycle. msgspec leaves a struct
# of atoms and tuples untracked by itself (parsing's Chunk), but a list field made these tracked, and
# every collection walked every live one: leaving them out halves the time the cyclic collector takes
# in a first index (celery, 15k chunks: 0.34-0.40 -> 0.19 s CPU).


class SparseVector(msgspec.Struct, frozen=True, gc=False):
    """A sparse vector: parallel lists of term indices and weights."""

    indices: list[int]
    values: list[float]


class ChunkPayload(msgspec.Struct, kw_only=True, omit_defaults=True, gc=False):
    """Everything Sextant stores about one chunk besides its vectors.

    `last_modified_at` is left out entirely (UNSET) when the recency scan was skipped, so that a run
    with the feature off writes byte-identical payloads; `None` means "age unknown".
    """

    repo_key: str
    """Subject-safe key of the repository the chunk belongs to."""
    path: str
    """Path of the file inside the repository, exactly as git names it."""
    blob_sha: str
    """Git blob SHA of the file content: the fingerprint that drives incremental indexing."""
    kind: str
    """"doc" or "code" (see sextant.doc_rules)."""
    language: str
    """Language name (python, go, markdown, text, ...)."""
    symbol: str | None = None
    """Symbol name, or the heading of a doc section; None for plain line windows."""
    symbol_type: str = "window"
    """function, method, class, interface, section, window, ..."""
    parent: str | None = None
    """Enclosing class/module name, when any."""
    package: str | None = None
    """Package or module path, when the language has one."""
    signature: str | None = None
    """Declaration line of the symbol."""
    docstring: str | None = None
    """Documentation string attached to the symbol."""
    annotations: list[str] = msgspec.field(default_factory=list)
    """Decorators/annotations on the symbol."""
    start_line: int
    """First line of the chunk (1-based, inclusive)."""
    end_line: int
    """Last line of the chunk (1-based, inclusive)."""
    window: int = 0
    """Index of this window when a symbol was split into overlapping windows (0 otherwise)."""
    window_count: int = 1
    """How many windows the symbol was split into."""
    text: str
    """The chunk's source text."""
    indexed_at: str
    """ISO 8601 UTC time the chunk was written."""
    last_modified_at: str | msgspec.UnsetType | None = msgspec.UNSET
    """ISO 8601 date of the file's last commit; None = age unknown; absent = recency scan skipped."""
    file_chunk_count: int = 0
    """How many points the file's version has (the same on each of them): a file whose stored points
    number fewer was cut short by an interrupted write and counts as changed. 0 = written before
    the count existed (trusted as complete)."""
    run_id: str = ""
    """The run that wrote the point, so a retried delivery of that run can count what earlier attempts did."""
    file_added: bool = False
    """The run that wrote the point found no earlier point of the file (added, not changed)."""
    dense_prefix: str = ""
    """What the dense embedding text holds before ``text`` (the symbol header): the dense vector is
    computed from ``dense_prefix + text`` after the point is stored (see ``dense_text_of``)."""
    dense_text: str | None = None
    """The whole dense embedding text, only when it is not ``dense_prefix + text``."""
    symbol_last_modified_at: str | msgspec.UnsetType | None = msgspec.UNSET
    """ISO 8601 date of the last commit that changed this chunk's own lines (a symbol can be older than
    its file); None = unknown; absent = not computed (see ``symbol_date_source``)."""
    symbol_date_source: SymbolDateSource | None = None
    """How ``symbol_last_modified_at`` was found: "blame" (the symbol's own lines, from git blame),
    "carried" (text unchanged since an earlier version, date kept), "file" (history not readable here,
    e.g. a blob-less mirror: the file's date stands in)."""


def dense_text_of(payload: ChunkPayload) -> str:
    """The text the dense vector of a stored chunk is computed from.

    Args:
        payload: A stored chunk payload.

    Returns:
        ``dense_text`` when stored, else ``dense_prefix + text``.
    """
    if payload.dense_text is not None:
        return payload.dense_text
    return payload.dense_prefix + payload.text
