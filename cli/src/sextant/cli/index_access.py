"""What the read-only commands (search, symbol, mcp) open: the configured store and embedder, and repo keys."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from sextant.chunkstore import ChunkStore
from sextant.cli.repository_check import local_git, repository_location
from sextant.contracts import RepoRef
from sextant.embedding import DenseEmbedder, SparseEncoder
from sextant.reviewer.recency_context import DOC_HEADER_NOTE
from sextant.search import CodeSearcher, SymbolFinder


class StoreUnavailableError(RuntimeError):
    """The chunk store cannot be opened (most often: `sextant up` holds the embedded one)."""


def repo_keys_for(locations: Sequence[str], provider: str = "generic", cwd: Path | None = None) -> list[str]:
    """The keys of ``repo_refs_for`` (same arguments): one per location, in order."""
    return [ref.repo_key for ref in repo_refs_for(locations, provider, cwd)]


def repo_refs_for(locations: Sequence[str], provider: str = "generic", cwd: Path | None = None) -> list[RepoRef]:
    """Repository references of the given locations, or of the repository around ``cwd`` when none is given.

    Args:
        locations: URLs or local paths, as given to `sextant index`.
        provider: Hosting provider of URL locations.
        cwd: Where to look for the default repository (the current directory by default).

    Returns:
        One reference per location, in order.
    """
    if not locations:
        locations = [str(current_repository(cwd or Path.cwd()))]
    return [RepoRef.for_url(repository_location(location), provider=provider) for location in locations]


def current_repository(start: Path) -> Path:
    """The top of the git work tree containing ``start`` (``start`` itself outside any repository).

    Args:
        start: A folder.

    Returns:
        The work-tree root, resolved.
    """
    found = local_git(start, "rev-parse", "--show-toplevel")  # our secrets stay home, its config runs nothing
    top = os.fsdecode(found).removesuffix("\n") if found else ""
    return Path(top).resolve() if top else start.resolve()


def open_index(env: Mapping[str, str]) -> tuple[ChunkStore, DenseEmbedder]:
    """Open the store of the configured embedding model, and that embedder (the model loads on first use).

    Args:
        env: The environment.

    Returns:
        (store, embedder); the caller closes the store.
    """
    from sextant.chunkstore.model_store import store_for_model
    from sextant.embedding import embedder_from_env

    embedder = embedder_from_env(env)
    try:
        return store_for_model(env, embedder), embedder
    except Exception as error:  # qdrant-edge raises a bare Exception when another process holds the folder
        raise StoreUnavailableError(f"cannot open the chunk store ({error}); is `sextant up` holding it?") from None


def searcher_for(store: ChunkStore, embedder: DenseEmbedder) -> CodeSearcher:
    """A searcher framing docs with the review context's own documentation note.

    Args:
        store: The open store.
        embedder: The store's embedder.

    Returns:
        The searcher.
    """
    return CodeSearcher(store=store, embedder=embedder, sparse=SparseEncoder(), doc_note=DOC_HEADER_NOTE)


def symbol_finder_for(store: ChunkStore) -> SymbolFinder:
    """A symbol finder with the same doc framing.

    Args:
        store: The open store.

    Returns:
        The finder.
    """
    return SymbolFinder(store=store, sparse=SparseEncoder(), doc_note=DOC_HEADER_NOTE)
