"""The chunk store port: the few operations services need from the vector database."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Protocol

from sextant.chunkstore.payload import ChunkPayload, SparseVector
from sextant.chunkstore.points import ChunkPoint, DenseUpdate, FileEntry, ScoredChunk, StoredChunk

DEFAULT_PAGE_SIZE = 256
"""Points per scroll page (the selector's rule 1)."""
DEFAULT_SEARCH_LIMIT = 50
"""Hits returned by a hybrid search (the reviewer's top 50)."""
DEFAULT_PREFETCH_LIMIT = 100
"""Candidates each of the dense and the sparse search contributes before fusion."""
DEFAULT_SYMBOL_LIMIT = 100
"""Definitions returned by one symbol look-up."""


class ChunkStore(Protocol):
    """A synchronous store of chunk points; async services call it through `asyncio.to_thread`.

    Every read and delete is scoped to one `repo_key`, because many repositories share a collection.
    """

    @property
    def collection(self) -> str:
        """Name of the collection (one per embedding model and dimension)."""
        ...

    def upsert(self, points: Sequence[ChunkPoint]) -> None:
        """Write points, replacing any with the same id; returns once they are visible and durable.

        Args:
            points: Points to write; an empty sequence is a no-op.
        """
        ...

    def delete_points(self, ids: Collection[str]) -> None:
        """Delete points by id; unknown ids are ignored.

        Args:
            ids: Point ids to delete.
        """
        ...

    def delete_paths(self, repo_key: str, paths: Collection[str]) -> int:
        """Delete every point of the given files of one repository.

        Args:
            repo_key: Repository whose files are deleted.
            paths: File paths inside the repository.

        Returns:
            How many points were deleted.
        """
        ...

    def set_last_modified(self, repo_key: str, stamps: Mapping[str, str | None]) -> int:
        """Set `last_modified_at` on every point of the given files, leaving vectors and other fields alone.

        Returns once the change is visible and durable. Never removes the field: absent stays reserved
        for points written while the recency scan was skipped.

        Args:
            repo_key: Repository whose files are re-stamped.
            stamps: File path -> new value (an ISO date, or None for age unknown); unknown paths are ignored.

        Returns:
            How many points were re-stamped.
        """
        ...

    def file_index(self, repo_key: str) -> dict[str, FileEntry]:
        """Map every stored file of a repository to its blob SHA, stored `last_modified_at` and point ids
        (one payload-only scroll).

        Args:
            repo_key: Repository to list.

        Returns:
            path -> FileEntry.
        """
        ...

    def scroll_payloads(self, repo_key: str, page_size: int = DEFAULT_PAGE_SIZE) -> Iterator[ChunkPayload]:
        """Yield every payload of a repository, page by page via the next-page offset, without vectors.

        Args:
            repo_key: Repository to read.
            page_size: Points fetched per page.

        Returns:
            An iterator of payloads in point-id order.
        """
        ...

    def hybrid_search(
        self,
        repo_key: str,
        dense: list[float],
        sparse: SparseVector,
        limit: int = DEFAULT_SEARCH_LIMIT,
        prefetch_limit: int = DEFAULT_PREFETCH_LIMIT,
    ) -> list[ScoredChunk]:
        """Dense and sparse prefetch within one repository, fused with reciprocal rank fusion.

        Args:
            repo_key: Repository to search.
            dense: Dense query vector.
            sparse: Sparse query vector (an empty one leaves the dense search alone).
            limit: Hits returned.
            prefetch_limit: Candidates from each of the two searches (raised to `limit` if lower).

        Returns:
            Hits, best first.
        """
        ...

    def search_chunks(
        self,
        repo_key: str,
        *,
        dense: list[float] | None = None,
        sparse: SparseVector | None = None,
        kind: str | None = None,
        limit: int = DEFAULT_SEARCH_LIMIT,
        prefetch_limit: int = DEFAULT_PREFETCH_LIMIT,
    ) -> list[ScoredChunk]:
        """Search one repository with whichever vectors are given: both are fused with RRF, one ranks alone.

        Sparse-only search is what callers use while dense vectors are still being written; dense-only and
        sparse-only searches are also what a quality benchmark compares hybrid against.

        Args:
            repo_key: Repository to search.
            dense: Dense query vector, or None to leave the dense side out.
            sparse: Sparse query vector, or None (or an empty one) to leave the sparse side out.
            kind: "code" or "doc" to search only that kind; None for both.
            limit: Hits returned.
            prefetch_limit: Candidates from each side before fusion (raised to `limit` if lower).

        Returns:
            Hits, best first (empty when neither vector is given). Scores are RRF scores when both sides
            ran, else the side's own similarity.
        """
        ...

    def find_symbols(
        self, repo_key: str, name: str, *, prefix: bool = False, limit: int = DEFAULT_SYMBOL_LIMIT
    ) -> list[ChunkPayload]:
        """Chunks whose `symbol` equals `name` (or starts with it), through the symbol payload index.

        Args:
            repo_key: Repository to look in.
            name: Symbol name, case-sensitive.
            prefix: Match every symbol that starts with `name` instead of exactly `name`.
            limit: Most payloads returned.

        Returns:
            Matching payloads, ordered by path and first line.
        """
        ...

    def count_missing_dense(self, repo_key: str) -> int:
        """Exact number of a repository's points stored without their dense vector yet.

        0 means every point can be found by dense search (hybrid search is complete); otherwise a caller
        that needs completeness searches sparse-only (`search_chunks` with no dense vector), or says the
        dense side is partial.

        Args:
            repo_key: Repository to count.

        Returns:
            The count.
        """
        ...

    def scroll_missing_dense(self, repo_key: str, page_size: int = DEFAULT_PAGE_SIZE) -> Iterator[StoredChunk]:
        """Yield every point of a repository that has no dense vector yet, with its payload.

        Pages are read lazily, so vectors added between pages (`add_dense_vectors`) do not disturb it.

        Args:
            repo_key: Repository to read.
            page_size: Points fetched per page.

        Returns:
            An iterator of (id, payload) in point-id order.
        """
        ...

    def add_dense_vectors(self, updates: Sequence[DenseUpdate]) -> int:
        """Give stored points their dense vector, leaving payload and sparse vector untouched.

        A point that was deleted, or rewritten since the vector's text was read (its `indexed_at`
        differs), is skipped; durable and visible on return.

        Args:
            updates: Vectors to add.

        Returns:
            How many points got their vector.
        """
        ...

    def count(self, repo_key: str) -> int:
        """Exact number of points stored for a repository.

        Args:
            repo_key: Repository to count.

        Returns:
            The count.
        """
        ...

    def close(self) -> None:
        """Release the engine; further calls fail. Closing twice is harmless."""
        ...
