"""Open the chunk store of the configured embedding model (its collection is named after the model)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from sextant.chunkstore.from_env import store_from_env
from sextant.chunkstore.port import ChunkStore
from sextant.config import default_store_path


class ModelIdentity(Protocol):
    """What names a collection: the embedding model and its vector size (no model is loaded)."""

    @property
    def model_id(self) -> str:
        """Embedding model id."""
        ...

    @property
    def dimension(self) -> int:
        """Dense vector size."""
        ...


def store_for_model(env: Mapping[str, str], model: ModelIdentity) -> ChunkStore:
    """The store every service opens: QDRANT_URL, QDRANT_PATH or SEXTANT_HOME/qdrant, per model.

    Args:
        env: Environment variables.
        model: The embedder (only its identity is read).

    Returns:
        An open chunk store.
    """
    return store_from_env(env, model_id=model.model_id, dimension=model.dimension, default_path=default_store_path(env))
