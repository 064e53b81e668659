"""The one read the selector and the analyzer need from the chunk store: a payload-only scroll."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from sextant.chunkstore.payload import ChunkPayload


class PayloadSource(Protocol):
    """Anything that scrolls a repository's chunk payloads without vectors (the chunk store port has it)."""

    def scroll_payloads(self, repo_key: str, page_size: int = ...) -> Iterable[ChunkPayload]:
        """Every chunk payload of one repository, fetched page by page, in any order.

        Args:
            repo_key: Subject-safe key of the repository.
            page_size: Payloads per page.

        Returns:
            The payloads, lazily.
        """
        ...
