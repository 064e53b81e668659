"""What the MCP server holds for its whole life: the store, the embedder, a bus session, the searchers."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass

from sextant.bootstrap import bootstrap
from sextant.chunkstore import ChunkStore
from sextant.cli.index_access import open_index, searcher_for, symbol_finder_for
from sextant.cli.runtime import Session, open_session
from sextant.embedding import DenseEmbedder, SparseEncoder
from sextant.rerank import Reranker
from sextant.reviewer.config import ReviewerSettings
from sextant.search import CodeSearcher, SymbolFinder


@dataclass(frozen=True)
class McpBackend:
    """Adapters built once; the tools are plain functions of this and their arguments."""

    env: Mapping[str, str]
    store: ChunkStore
    embedder: DenseEmbedder
    sparse: SparseEncoder
    reranker: Reranker
    review_settings: ReviewerSettings
    session: Session
    searcher: CodeSearcher
    symbols: SymbolFinder


@contextlib.asynccontextmanager
async def open_backend(env: Mapping[str, str]) -> AsyncIterator[McpBackend]:
    """Open the index and the bus the way every command does.

    On NATS_URL or a running `sextant up` the bus is theirs and this process only publishes and reads;
    otherwise this process starts the embedded runtime and hosts the services itself, sharing its one
    store and embedder with them (the embedded store admits one owner).

    Args:
        env: The environment.

    Yields:
        The backend; everything is closed on exit.
    """
    store, embedder = open_index(env)
    adapters = bootstrap(env, store=store, embedder=embedder)
    try:
        async with open_session(env, host=True, adapters=adapters) as session:
            yield McpBackend(
                env=env,
                store=store,
                embedder=embedder,
                sparse=adapters.sparse,
                reranker=adapters.reranker,
                review_settings=ReviewerSettings.from_env(env),
                session=session,
                searcher=searcher_for(store, embedder),
                symbols=symbol_finder_for(store),
            )
    finally:
        adapters.close()
        store.close()
