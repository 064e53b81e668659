"""Whether every point of a repository has its dense vector yet.

Dense vectors are written after payloads and sparse vectors, so a freshly indexed repository can be
searched by its sparse side before its dense side is complete. Hybrid search over a half-embedded
repository would rank the embedded half above the rest for no reason of relevance, so search stays
sparse-only until the dense side covers every point.
"""

from __future__ import annotations

from sextant.chunkstore import ChunkStore


def points_missing_dense(store: ChunkStore, repo_key: str, dimension: int) -> int:
    """How many of a repository's points have no dense vector.

    A dense query only ever returns points that hold a dense vector, so a dense search asking for every
    point tells how many hold one (the query vector itself is irrelevant: any vector ranks them all).

    Args:
        store: The chunk store.
        repo_key: Repository to check.
        dimension: Dense vector size of the store.

    Returns:
        Points without a dense vector (0 for an empty repository).
    """
    total = store.count(repo_key)
    if total == 0:
        return 0
    probe = [1.0] + [0.0] * (dimension - 1)
    with_dense = len(store.search_chunks(repo_key, dense=probe, limit=total))
    return total - with_dense
