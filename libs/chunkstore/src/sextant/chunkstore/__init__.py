"""Chunk store port with embedded (qdrant-edge) and server (qdrant-client) adapters.

Adapters are imported lazily by `store_from_env`; import `EdgeChunkStore` from
`sextant.chunkstore.edge_store` and `QdrantServerChunkStore` from `sextant.chunkstore.server_store`.
"""

from sextant.chunkstore.from_env import store_from_env
from sextant.chunkstore.payload import ChunkPayload, SparseVector, SymbolDateSource, dense_text_of
from sextant.chunkstore.points import (
    ChunkPoint,
    DenseUpdate,
    FileEntry,
    ScoredChunk,
    StoredChunk,
    best_window_per_symbol,
    point_id,
)
from sextant.chunkstore.port import (
    DEFAULT_PAGE_SIZE,
    DEFAULT_PREFETCH_LIMIT,
    DEFAULT_SEARCH_LIMIT,
    DEFAULT_SYMBOL_LIMIT,
    ChunkStore,
)
from sextant.chunkstore.schema import DENSE_VECTOR, SPARSE_VECTOR, collection_name

__all__ = [
    "DEFAULT_PAGE_SIZE",
    "DEFAULT_PREFETCH_LIMIT",
    "DEFAULT_SEARCH_LIMIT",
    "DEFAULT_SYMBOL_LIMIT",
    "DENSE_VECTOR",
    "SPARSE_VECTOR",
    "ChunkPayload",
    "ChunkPoint",
    "ChunkStore",
    "DenseUpdate",
    "FileEntry",
    "ScoredChunk",
    "SparseVector",
    "StoredChunk",
    "SymbolDateSource",
    "best_window_per_symbol",
    "collection_name",
    "dense_text_of",
    "point_id",
    "store_from_env",
]
