"""Pick the chunk store adapter from environment variables (unset = the embedded default)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from sextant.chunkstore.port import ChunkStore
from sextant.chunkstore.schema import collection_name
from sextant.config import env_str, private_folder

logger = logging.getLogger(__name__)


def store_from_env(env: Mapping[str, str], *, model_id: str, dimension: int, default_path: Path) -> ChunkStore:
    """Build the chunk store the environment asks for.

    `QDRANT_URL` set → a Qdrant server (with `QDRANT_API_KEY`, sent as the `api-key` header and never
    logged); otherwise the embedded engine under `QDRANT_PATH`, or `default_path` when that is unset,
    a folder made owner-only (it holds the raw text of every indexed file).

    Args:
        env: Environment variables (usually `os.environ`).
        model_id: Embedding model id; with `dimension` it names the collection.
        dimension: Dense vector size.
        default_path: Base folder of the embedded store when `QDRANT_PATH` is unset.

    Returns:
        An open chunk store; the caller closes it.
    """
    collection = collection_name(model_id, dimension)
    url = env_str(env, "QDRANT_URL")
    if url:
        parts = urlsplit(url)
        if parts.username or parts.password:
            # Never echo the URL: it holds a secret.
            raise ValueError("QDRANT_URL must not carry credentials; put the key in QDRANT_API_KEY")
        from qdrant_client import QdrantClient

        from sextant.chunkstore.server_store import QdrantServerChunkStore

        api_key = env_str(env, "QDRANT_API_KEY")
        logger.info("chunk store: Qdrant server at %s (api key %s)", url, "set" if api_key else "unset")
        return QdrantServerChunkStore(QdrantClient(url=url, api_key=api_key), collection, dimension)

    from sextant.chunkstore.edge_store import EdgeChunkStore

    path = private_folder(Path(env_str(env, "QDRANT_PATH") or default_path))
    return EdgeChunkStore(path, collection, dimension)
