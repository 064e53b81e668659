"""Indexer service: incremental, content-addressed ingestion of a repository branch into the chunk store.

`index_repository(request, recency, deps, progress)` runs one index (the CLI may call it directly);
`app.router_factory(env, store=, embedder=)` wires it to the bus.
"""

from sextant.indexer.config import IndexerSettings
from sextant.indexer.deps import IndexerDeps
from sextant.indexer.discovery import DEFAULT_EXCLUDES, DiscoveryRules
from sextant.indexer.pipeline import StoreUnavailableError, index_repository
from sextant.indexer.progress import IndexProgress, ProgressCallback

__all__ = [
    "DEFAULT_EXCLUDES",
    "DiscoveryRules",
    "IndexProgress",
    "IndexerDeps",
    "IndexerSettings",
    "ProgressCallback",
    "StoreUnavailableError",
    "index_repository",
]
