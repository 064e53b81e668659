"""Cohere rerank and a local, offline fallback; never a hard failure."""

from sextant.rerank.cohere import CohereReranker
from sextant.rerank.environment import reranker_from_env
from sextant.rerank.local import LocalReranker
from sextant.rerank.result import Reranker, RerankResult

__all__ = ["CohereReranker", "LocalReranker", "RerankResult", "Reranker", "reranker_from_env"]
