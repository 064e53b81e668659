"""Whether every point of a repository has its dense vector yet.

Dense vectors are written after payloads and sparse vectors, so a freshly indexed repository can be
searched by its sparse side before its dense side is complete. Hybrid search over a half-embedded
repository would rank the embedded half above the rest for no reason of relevance, so search (and the
reviewer) stays sparse-only until the dense side covers every point.
"""

from __future__ import annotations

from sextant.chunkstore import ChunkStore


def points_missing_dense(store: ChunkStore, repo_key: str) -> int:
    """How many of a repository's points have no dense vector yet (the store counts them with one filter).

    Args:
        store: The chunk store.
        repo_key: Repository to check.

    Returns:
        Points without a dense vector (0 for an empty repository).
    """
    return store.count_missing_dense(repo_key)
