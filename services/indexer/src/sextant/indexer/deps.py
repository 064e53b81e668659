"""What an index run needs, built once and shared by every run (and by services in one process)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from sextant.chunkstore import ChunkStore
from sextant.embedding import DenseEmbedder, SparseEncoder
from sextant.gitsource.mirror import RepoMirror
from sextant.indexer.config import IndexerSettings
from sextant.indexer.file_embedding import SparseDocumentEncoder


@dataclass
class IndexerDeps:
    """Adapters of one indexer: settings, store, dense and sparse embedders and the mirror cache."""

    settings: IndexerSettings
    store: ChunkStore
    embedder: DenseEmbedder
    mirrors: RepoMirror
    sparse: SparseDocumentEncoder = field(default_factory=SparseEncoder)
    repo_locks: dict[str, asyncio.Lock] = field(default_factory=dict, repr=False)
    """One run per repository at a time in this process (the CLI and the service may share deps)."""

    def lock_for(self, repo_key: str) -> asyncio.Lock:
        """The lock serialising runs of one repository.

        Args:
            repo_key: Repository key.

        Returns:
            The repository's lock.
        """
        return self.repo_locks.setdefault(repo_key, asyncio.Lock())

    @classmethod
    def build(
        cls,
        settings: IndexerSettings,
        *,
        store: ChunkStore | None = None,
        embedder: DenseEmbedder | None = None,
    ) -> IndexerDeps:
        """Build the adapters the settings' environment asks for, reusing any passed in.

        Args:
            settings: Indexer settings (their ``env`` chooses the store and the embedder).
            store: A store shared with other services; None opens the configured one.
            embedder: A dense embedder shared with other services; None builds the configured one.

        Returns:
            The dependencies.
        """
        from sextant.chunkstore import store_from_env
        from sextant.embedding import embedder_from_env

        dense = embedder if embedder is not None else embedder_from_env(settings.env)
        chunk_store = store
        if chunk_store is None:
            chunk_store = store_from_env(
                settings.env,
                model_id=dense.model_id,
                dimension=dense.dimension,
                default_path=settings.store_path,
            )
        mirrors = RepoMirror(settings.mirrors_dir, timeout=settings.git_timeout_seconds)
        return cls(settings=settings, store=chunk_store, embedder=dense, mirrors=mirrors)
