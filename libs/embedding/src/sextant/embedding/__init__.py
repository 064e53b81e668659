"""Dense and sparse embedders: local model and hosted providers.

Dense: `DenseEmbedder` (the port), `LocalMiniLM` (default, offline), `OpenAICompatibleEmbedder`,
`CohereEmbedder`, `OllamaEmbedder`, chosen by `embedder_from_env`. Sparse: `SparseEncoder` (BM25 over
`split_code_identifiers` tokens). Failures raise `EmbeddingError`.

The names are imported on first use, so a process that needs only the sparse side (the indexer's parse
process) does not load the model runtime and the HTTP clients.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sextant.embedding.code_identifiers import split_code_identifiers
    from sextant.embedding.cohere_v2 import CohereEmbedder
    from sextant.embedding.embedder_from_env import embedder_from_env
    from sextant.embedding.errors import EmbeddingError
    from sextant.embedding.hosted_embedder import HostedEmbedder
    from sextant.embedding.local_minilm import LocalMiniLM
    from sextant.embedding.ollama_embed import OllamaEmbedder
    from sextant.embedding.openai_compatible import OpenAICompatibleEmbedder
    from sextant.embedding.port import DenseEmbedder
    from sextant.embedding.sparse_bm25 import SparseEncoder, term_index
    from sextant.provider_http import RetryPolicy

_HOMES = {
    "CohereEmbedder": "sextant.embedding.cohere_v2",
    "DenseEmbedder": "sextant.embedding.port",
    "EmbeddingError": "sextant.embedding.errors",
    "HostedEmbedder": "sextant.embedding.hosted_embedder",
    "LocalMiniLM": "sextant.embedding.local_minilm",
    "OllamaEmbedder": "sextant.embedding.ollama_embed",
    "OpenAICompatibleEmbedder": "sextant.embedding.openai_compatible",
    "RetryPolicy": "sextant.provider_http",
    "SparseEncoder": "sextant.embedding.sparse_bm25",
    "embedder_from_env": "sextant.embedding.embedder_from_env",
    "split_code_identifiers": "sextant.embedding.code_identifiers",
    "term_index": "sextant.embedding.sparse_bm25",
}

__all__ = [
    "CohereEmbedder",
    "DenseEmbedder",
    "EmbeddingError",
    "HostedEmbedder",
    "LocalMiniLM",
    "OllamaEmbedder",
    "OpenAICompatibleEmbedder",
    "RetryPolicy",
    "SparseEncoder",
    "embedder_from_env",
    "split_code_identifiers",
    "term_index",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value
