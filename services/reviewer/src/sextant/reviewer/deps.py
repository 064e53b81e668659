"""The reviewer's adapters, built once."""

from __future__ import annotations

from dataclasses import dataclass

from sextant.bootstrap import Adapters, service_deps
from sextant.chunkstore import ChunkStore
from sextant.embedding import DenseEmbedder, SparseEncoder
from sextant.gitsource.mirror import RepoMirror
from sextant.llm import LanguageModel
from sextant.rerank import Reranker
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
    def from_adapters(cls, settings: ReviewerSettings, adapters: Adapters) -> ReviewerDeps:
        """The reviewer's dependencies from the process's shared adapters.

        Args:
            settings: Reviewer settings (read from the environment by the caller).
            adapters: The shared adapters.

        Returns:
            The dependencies; the settings carry the adapters' token lookup.
        """
        return service_deps(cls, settings, adapters, mirror="mirrors")
