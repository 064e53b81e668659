"""The reviewer's adapters, built once."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sextant.chunkstore import ChunkStore
from sextant.chunkstore.model_store import store_for_model
from sextant.config import mirrors_path
from sextant.embedding import DenseEmbedder, SparseEncoder, embedder_from_env
from sextant.gitsource.mirror import RepoMirror
from sextant.llm import LanguageModel, model_from_env
from sextant.rerank import Reranker, reranker_from_env
from sextant.reviewer.config import ReviewerSettings


@dataclass(frozen=True)
class ReviewerDeps:
    """Everything a review needs besides the event."""

    settings: ReviewerSettings
    store: ChunkStore
    embedder: DenseEmbedder
    sparse: SparseEncoder
    reranker: Reranker
    model: LanguageModel | None
    mirror: RepoMirror

    @classmethod
    def build(
        cls, env: Mapping[str, str], *, store: ChunkStore | None = None, embedder: DenseEmbedder | None = None
    ) -> ReviewerDeps:
        """Adapters from the environment; a process hosting several services passes shared ones."""
        embedder = embedder or embedder_from_env(env)
        return cls(
            settings=ReviewerSettings.from_env(env),
            store=store or store_for_model(env, embedder),
            embedder=embedder,
            sparse=SparseEncoder(),
            reranker=reranker_from_env(env),
            model=model_from_env(env),
            mirror=RepoMirror(mirrors_path(env)),
        )
