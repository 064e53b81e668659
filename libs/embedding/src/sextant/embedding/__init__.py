"""Dense and sparse embedders: local model and hosted providers.

Dense: `DenseEmbedder` (the port), `LocalMiniLM` (default, offline), `OpenAICompatibleEmbedder`,
`CohereEmbedder`, `OllamaEmbedder`, chosen by `embedder_from_env`. Sparse: `SparseEncoder` (BM25 over
`split_code_identifiers` tokens). Failures raise `EmbeddingError`.
"""

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
