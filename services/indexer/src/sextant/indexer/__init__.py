"""Indexer service: incremental, content-addressed ingestion of a repository branch into the chunk store.

`index_repository(request, recency, deps, progress)` runs one index (the CLI may call it directly);
`app.router_factory(env, store=, embedder=)` wires it to the bus.

The names below are imported on first use, so the parse process (``parse_process``), which imports
only the parsing side of this package, does not load the store, the bus and the embedders.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sextant.indexer.config import IndexerSettings
    from sextant.indexer.deps import IndexerDeps
    from sextant.indexer.discovery import DEFAULT_EXCLUDES, DiscoveryRules
    from sextant.indexer.pipeline import StoreUnavailableError, index_repository
    from sextant.indexer.progress import IndexProgress, ProgressCallback

_HOMES = {
    "DEFAULT_EXCLUDES": "discovery",
    "DiscoveryRules": "discovery",
    "IndexProgress": "progress",
    "IndexerDeps": "deps",
    "IndexerSettings": "config",
    "ProgressCallback": "progress",
    "StoreUnavailableError": "pipeline",
    "index_repository": "pipeline",
}

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


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"sextant.indexer.{home}"), name)
    globals()[name] = value
    return value
