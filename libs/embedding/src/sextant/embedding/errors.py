"""The one error every embedder raises: tells the caller whether trying again later may help."""

from __future__ import annotations


class EmbeddingError(Exception):
    """An embedding request that failed for good in this attempt.

    `reason` is safe to show to users and to store in events (`ChunksIndexed.failed_files`): it never
    holds an API key, a request header or a full request body.
    """

    def __init__(self, reason: str, *, transient: bool) -> None:
        """Create the error.

        Args:
            reason: Short, secret-free explanation (provider, status, what to check).
            transient: True when the same request may succeed later (rate limit, 5xx, timeout,
                network), False when it cannot without a change (bad key, bad model, bad input).
        """
        super().__init__(reason)
        self.reason = reason
        self.transient = transient

    def __repr__(self) -> str:
        return f"EmbeddingError({self.reason!r}, transient={self.transient})"
