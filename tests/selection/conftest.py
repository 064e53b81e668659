"""Payload builders for the selection tests."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Protocol

import msgspec
import pytest

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_rules import chunk_kind


class MakePayload(Protocol):
    def __call__(
        self,
        path: str,
        line: int = 1,
        date: str | msgspec.UnsetType | None = msgspec.UNSET,
        *,
        text: str | None = None,
    ) -> ChunkPayload: ...


def build_payload(
    path: str,
    line: int = 1,
    date: str | msgspec.UnsetType | None = msgspec.UNSET,
    *,
    text: str | None = None,
) -> ChunkPayload:
    """A chunk of `path` covering lines line..line+9, dated `date` (UNSET = recency scan skipped)."""
    return ChunkPayload(
        repo_key="acme-widgets",
        path=path,
        blob_sha="0" * 40,
        kind=chunk_kind(path),
        language="markdown" if chunk_kind(path) == "doc" else "python",
        start_line=line,
        end_line=line + 9,
        text=text if text is not None else f"{path}:{line}",
        indexed_at="2026-06-01T00:00:00Z",
        last_modified_at=date,
    )


@pytest.fixture
def make_payload() -> MakePayload:
    """Build one chunk payload."""
    return build_payload


@pytest.fixture
def make_file() -> Callable[..., list[ChunkPayload]]:
    """Build `chunks` payloads of one file, all with the file's date, 10 lines apart."""

    def make(path: str, chunks: int = 1, date: str | msgspec.UnsetType | None = msgspec.UNSET) -> list[ChunkPayload]:
        return [build_payload(path, 1 + 10 * index, date) for index in range(chunks)]

    return make


class PagedSource:
    """A PayloadSource over a list, handing out pages the way the chunk store port does."""

    def __init__(self, payloads: Iterable[ChunkPayload]) -> None:
        self.payloads = list(payloads)
        self.pages: list[int] = []

    def scroll_payloads(self, repo_key: str, page_size: int = 256) -> Iterator[ChunkPayload]:
        mine = [payload for payload in self.payloads if payload.repo_key == repo_key]
        for start in range(0, len(mine), page_size):
            page = mine[start : start + page_size]
            self.pages.append(len(page))
            yield from page


@pytest.fixture
def paged_source() -> type[PagedSource]:
    """The in-memory PayloadSource class."""
    return PagedSource
