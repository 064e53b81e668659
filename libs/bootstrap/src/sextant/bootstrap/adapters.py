"""The one door through which every service gets its adapters: ``bootstrap(env, **overrides)``.

Adapters are built on first use and then shared, so a process hosting one service builds only what
that service asks for (the recency scanner opens no store and loads no model), and a process hosting
all of them opens the embedded store once (it locks its folder) and loads the embedding model once.
Tests pass fakes through the same door as keyword overrides.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any, Final, TypeVar

from sextant.config import TokenLookup, env_float, mirrors_path, private_folder, token_lookup

if TYPE_CHECKING:
    from sextant.chunkstore import ChunkStore
    from sextant.embedding import DenseEmbedder, SparseEncoder
    from sextant.gitsource.mirror import RepoMirror
    from sextant.llm import LanguageModel
    from sextant.rerank import Reranker

GIT_TIMEOUT_VARIABLE = "INDEX_GIT_TIMEOUT_SECONDS"
"""Limit of each git command the shared mirror cache runs (fetch, ls-tree, cat-file, diff)."""


D = TypeVar("D")


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Final = _Unset()
"""Marks an adapter the caller did not override (None is a real value: "no language model")."""


class Adapters:
    """The shared adapters of one process, each built from the environment when first asked for.

    Args:
        env: Environment variables; only the adapter builders read them (handlers never see them).
        overrides: Adapters to use instead of building them (tests, embedding callers), by name.
    """

    def __init__(self, env: Mapping[str, str], overrides: Mapping[str, object]) -> None:
        unknown = set(overrides) - ADAPTER_NAMES
        if unknown:
            raise TypeError(f"unknown adapters: {', '.join(sorted(unknown))}")
        self._env = dict(env)
        self._owned: list[str] = []
        for name, value in overrides.items():
            self.__dict__[name] = value  # what cached_property would have stored

    @cached_property
    def embedder(self) -> DenseEmbedder:
        """The dense embedder (EMBEDDINGS_*; constructing it loads no model)."""
        from sextant.embedding import embedder_from_env

        return embedder_from_env(self._env)

    @cached_property
    def store(self) -> ChunkStore:
        """The chunk store of the embedder's collection (QDRANT_URL, QDRANT_PATH or SEXTANT_HOME/qdrant)."""
        from sextant.chunkstore.model_store import store_for_model

        store = store_for_model(self._env, self.embedder)
        self._owned.append("store")
        return store

    @cached_property
    def sparse(self) -> SparseEncoder:
        """The BM25 sparse encoder."""
        from sextant.embedding import SparseEncoder

        return SparseEncoder()

    @cached_property
    def model(self) -> LanguageModel | None:
        """The language model (LLM_*, ANTHROPIC_*, …), or None when none is configured."""
        from sextant.llm import model_from_env

        return model_from_env(self._env)

    @cached_property
    def reranker(self) -> Reranker:
        """Cohere rerank when a key is set, else the local fallback."""
        from sextant.rerank import reranker_from_env

        return reranker_from_env(self._env)

    @cached_property
    def mirrors(self) -> RepoMirror:
        """The blob-less git mirror cache under SEXTANT_HOME/mirrors (owner-only), shared by every service here."""
        from sextant.gitsource.mirror import DEFAULT_MIRROR_TIMEOUT, RepoMirror

        timeout = env_float(self._env, GIT_TIMEOUT_VARIABLE, DEFAULT_MIRROR_TIMEOUT)
        return RepoMirror(private_folder(mirrors_path(self._env)), timeout=timeout)

    @cached_property
    def tokens(self) -> TokenLookup:
        """Git hosting tokens by provider: all of the environment a handler ever gets."""
        return token_lookup(self._env)

    def close(self) -> None:
        """Close what this object opened itself (an overridden adapter belongs to the caller)."""
        if "store" in self._owned:
            with contextlib.suppress(Exception):  # closing at shutdown must not hide the real outcome
                self.store.close()
            self._owned.remove("store")


ADAPTER_NAMES: Final = frozenset({"embedder", "store", "sparse", "model", "reranker", "mirrors", "tokens"})


def service_deps(deps_type: type[D], settings: Any, adapters: Adapters, **adapter_for: str) -> D:
    """A service's dependencies: each field named like an adapter takes that adapter, ``settings`` the
    service's settings with the adapters' token lookup in their ``tokens``.

    Args:
        deps_type: The service's dependencies dataclass (a ``settings`` field and adapter fields).
        settings: The service's settings (a dataclass with a ``tokens`` field).
        adapters: The process's shared adapters (only those the service names are built).
        **adapter_for: Fields named otherwise than their adapter, such as ``mirror="mirrors"``.

    Returns:
        The dependencies; fields that are no adapter keep their defaults.
    """
    values: dict[str, Any] = {"settings": dataclasses.replace(settings, tokens=adapters.tokens)}
    for field in dataclasses.fields(deps_type):  # type: ignore[arg-type]
        adapter = adapter_for.get(field.name, field.name)
        if adapter in ADAPTER_NAMES and field.name not in values:
            values[field.name] = getattr(adapters, adapter)
    return deps_type(**values)


def bootstrap(
    env: Mapping[str, str],
    *,
    store: ChunkStore | _Unset = UNSET,
    embedder: DenseEmbedder | _Unset = UNSET,
    sparse: SparseEncoder | _Unset = UNSET,
    model: LanguageModel | _Unset | None = UNSET,
    reranker: Reranker | _Unset = UNSET,
    mirrors: RepoMirror | _Unset = UNSET,
    tokens: TokenLookup | _Unset = UNSET,
) -> Adapters:
    """The adapters of this process: given ones are used as they are, the rest built on first use.

    Args:
        env: Environment variables.
        store: Chunk store (default: the configured one, for the embedder's collection).
        embedder: Dense embedder (default: EMBEDDINGS_PROVIDER and friends).
        sparse: Sparse encoder (default: BM25).
        model: Language model, or None for none (default: the configured one, if any).
        reranker: Reranker (default: Cohere with a key, else local).
        mirrors: Git mirror cache (default: SEXTANT_HOME/mirrors).
        tokens: Git token lookup (default: GITHUB_TOKEN, GITLAB_TOKEN, BITBUCKET_TOKEN, GIT_TOKEN).

    Returns:
        The adapters; call ``close()`` when the process stops hosting services.
    """
    given = {
        "store": store,
        "embedder": embedder,
        "sparse": sparse,
        "model": model,
        "reranker": reranker,
        "mirrors": mirrors,
        "tokens": tokens,
    }
    return Adapters(env, {name: value for name, value in given.items() if not isinstance(value, _Unset)})
