"""Invariants of the selection over random repositories (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from dataclasses import dataclass

import msgspec
from hypothesis import given
from hypothesis import strategies as st

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_rules import chunk_kind, parse_iso_date
from sextant.selection import MAX_CHUNKS_PER_FILE, SelectedChunk, doc_cap, select_for_limits, select_from_payloads

DATES: list[str | msgspec.UnsetType | None] = [
    msgspec.UNSET,
    None,
    "bogus",
    "2024-01-01",
    "2025-06-30T23:00:00-02:00",
    "2025-07-01T01:00:00Z",
    "2026-01-01",
]
DIRS = ["", "src/", "lib/", "docs/", "a/b/"]
SEEDS = ("README.md", "package.json")
NAMES = ["f0.py", "f1.py", "f2.go", "g0.md", "g1.md", "g2.txt", "README.md", "package.json"]


@dataclass(frozen=True)
class RandomFile:
    path: str
    chunks: int
    date: str | msgspec.UnsetType | None


files_strategy = st.lists(
    st.builds(
        RandomFile,
        path=st.builds(str.__add__, st.sampled_from(DIRS), st.sampled_from(NAMES)),
        chunks=st.integers(1, 6),
        date=st.sampled_from(DATES),
    ),
    max_size=25,
    unique_by=lambda random_file: random_file.path,
)


def payloads_of(files: list[RandomFile]) -> list[ChunkPayload]:
    return [
        ChunkPayload(
            repo_key="r",
            path=random_file.path,
            blob_sha="b",
            kind=chunk_kind(random_file.path),
            language="x",
            start_line=1 + 5 * index,
            end_line=5 + 5 * index,
            text=f"{random_file.path}#{index}",
            indexed_at="2026-06-01T00:00:00Z",
            last_modified_at=random_file.date,
        )
        for random_file in files
        for index in range(random_file.chunks)
    ]


def recency(random_file: RandomFile) -> tuple[int, float, str]:
    date = random_file.date if isinstance(random_file.date, str) else None
    parsed = parse_iso_date(date)
    return (1, 0.0, random_file.path) if parsed is None else (0, -parsed.timestamp(), random_file.path)


def bucket(path: str) -> str:
    head, slash, _ = path.partition("/")
    return head if slash else ""


def counts(files: list[RandomFile], limit: int) -> tuple[dict[str, int], Counter[str], list[SelectedChunk]]:
    chunks = select_from_payloads(payloads_of(files), limit).chunks
    size = {random_file.path: random_file.chunks for random_file in files}
    return size, Counter(chunk.path for chunk in chunks), chunks


def capped(count: int) -> int:
    return min(MAX_CHUNKS_PER_FILE, count)


limits = st.integers(0, 40)


@given(files=files_strategy, limit=limits)
def test_never_more_than_the_limit_never_an_empty_slot(files: list[RandomFile], limit: int) -> None:
    payloads = payloads_of(files)
    selection = select_from_payloads(payloads, limit)
    assert selection.picked == len(selection.chunks) == min(limit, len(payloads))
    assert selection.chunks_seen == len(payloads)
    # Every pick is a real chunk, picked once.
    size = {random_file.path: random_file.chunks for random_file in files}
    assert len({(chunk.path, chunk.start_line) for chunk in selection.chunks}) == len(selection.chunks)
    assert all(chunk.start_line <= 1 + 5 * (size[chunk.path] - 1) for chunk in selection.chunks)


@given(files=files_strategy, limit=limits)
def test_docs_pass_their_cap_only_when_code_runs_out(files: list[RandomFile], limit: int) -> None:
    size, picked, chunks = counts(files, limit)
    if sum(chunk.kind == "doc" for chunk in chunks) > doc_cap(limit):
        for path, count in size.items():
            if chunk_kind(path) == "code":
                assert picked[path] >= capped(count)


@given(files=files_strategy, limit=limits)
def test_per_file_cap_and_recency_while_the_capped_pool_suffices(files: list[RandomFile], limit: int) -> None:
    size, picked, _ = counts(files, limit)
    if sum(capped(count) for count in size.values()) < limit:
        # The whole capped pool is in before any file passes its cap.
        assert all(picked[path] >= capped(count) for path, count in size.items())
        return
    assert max(picked.values(), default=0) <= MAX_CHUNKS_PER_FILE
    # Within a directory and kind, no older file is picked while a newer one still has room.
    groups: defaultdict[tuple[str, str], list[RandomFile]] = defaultdict(list)
    for random_file in files:
        if random_file.path not in SEEDS:
            groups[(bucket(random_file.path), chunk_kind(random_file.path))].append(random_file)
    for members in groups.values():
        members.sort(key=recency)
        partial = [picked[member.path] < capped(member.chunks) for member in members]
        first_partial = partial.index(True) if True in partial else len(members)
        assert all(picked[member.path] == 0 for member in members[first_partial + 1 :])


@given(files=files_strategy, limit=limits)
def test_seeds_are_in_when_present(files: list[RandomFile], limit: int) -> None:
    size, picked, chunks = counts(files, limit)
    # The README needs a doc cap of at least one (limit 5); the manifest only a free code slot.
    if "README.md" in size and limit >= 5:
        assert picked["README.md"] >= 1
    if "package.json" in size and limit >= 1:
        assert picked["package.json"] >= 1
    for chunk in chunks:
        assert (chunk.reason == "seed") == (chunk.path in SEEDS)
        assert chunk.reason in ("seed", chunk.kind)


@given(files=files_strategy, limit=limits, seed=st.integers(0, 2**32))
def test_scroll_order_never_changes_the_answer(files: list[RandomFile], limit: int, seed: int) -> None:
    payloads = payloads_of(files)
    shuffled = list(payloads)
    random.Random(seed).shuffle(shuffled)
    assert select_from_payloads(shuffled, limit) == select_from_payloads(payloads, limit)


@given(files=files_strategy)
def test_tiny_repositories_pass_through(files: list[RandomFile]) -> None:
    payloads = payloads_of(files)
    selection = select_from_payloads(payloads, len(payloads) + 1)
    assert sorted((chunk.path, chunk.start_line) for chunk in selection.chunks) == sorted(
        (payload.path, payload.start_line) for payload in payloads
    )


@given(
    files=files_strategy, small=st.integers(min_value=0, max_value=60), large=st.integers(min_value=0, max_value=120)
)
def test_one_pass_for_several_limits_equals_one_pass_each(files: list[RandomFile], small: int, large: int) -> None:
    payloads = payloads_of(files)
    together = select_for_limits(iter(payloads), [large, small])
    assert together == [select_from_payloads(payloads, large), select_from_payloads(payloads, small)]
