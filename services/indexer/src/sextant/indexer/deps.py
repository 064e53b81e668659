"""What an index run needs, built once and shared by every run (and by services in one process)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from sextant.bootstrap import Adapters, service_deps
from sextant.chunkstore import ChunkStore
from sextant.embedding import DenseEmbedder, SparseEncoder
from sextant.gitsource.mirror import RepoMirror
from sextant.indexer.config import IndexerSettings
from sextant.indexer.parse_process import ParseProcess, shared_parse_process
from sextant.indexer.sparse_encoding import SparseDocumentEncoder


@dataclass
class IndexerDeps:
    """Adapters of one indexer: settings, store, dense and sparse embedders and the mirror cache."""

    settings: IndexerSettings
    store: ChunkStore
    embedder: DenseEmbedder
    mirrors: RepoMirror
    sparse: SparseDocumentEncoder = field(default_factory=SparseEncoder)
    parse_process: ParseProcess = field(default_factory=shared_parse_process, repr=False)
    """The parse worker's client (one per process; a test may bring its own)."""
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
    def from_adapters(cls, settings: IndexerSettings, adapters: Adapters) -> IndexerDeps:
        """The indexer's dependencies from the process's shared adapters.

        Args:
            settings: Indexer settings (read from the environment by the caller).
            adapters: The shared adapters (store, embedder, sparse encoder, mirrors, git tokens).

        Returns:
            The dependencies; the settings carry the adapters' token lookup. Unless
            ``settings.parse_process`` is false, the parse process is started here, once for the service, so its
            imports run while the service waits for its first run.
        """
        if settings.parse_process != "false":
            shared_parse_process().start()
        return service_deps(cls, settings, adapters)
