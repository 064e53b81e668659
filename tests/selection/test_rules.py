"""One test per selection rule (docs/design.md §5)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import msgspec
import pytest

from sextant.chunkstore.payload import ChunkPayload
from sextant.selection import (
    ANALYSIS_LIMIT,
    MAX_CHUNKS_PER_FILE,
    SUMMARY_LIMIT,
    Selection,
    doc_cap,
    seed_rank,
    select_analysis_chunks,
    select_from_payloads,
)

MakeFile = Callable[..., list[ChunkPayload]]


def by_kind(selection: Selection) -> Counter[str]:
    return Counter(chunk.kind for chunk in selection.chunks)


def per_file(selection: Selection) -> Counter[str]:
    return Counter(chunk.path for chunk in selection.chunks)


def month(index: int) -> str:
    """A distinct date per index, newer for higher indices."""
    return f"{2020 + index // 12:04d}-{1 + index % 12:02d}-15T12:00:00Z"


def test_constants() -> None:
    assert (ANALYSIS_LIMIT, SUMMARY_LIMIT, MAX_CHUNKS_PER_FILE) == (80, 40, 3)
    assert (doc_cap(80), doc_cap(40), doc_cap(35), doc_cap(4)) == (16, 8, 7, 0)


def test_doc_cap_holds_when_code_is_plentiful(make_file: MakeFile) -> None:
    payloads = [p for i in range(100) for p in make_file(f"docs/d{i}.md", 2, month(i))]
    payloads += [p for i in range(100) for p in make_file(f"src/m{i}.py", 2, month(i))]
    selection = select_from_payloads(payloads, ANALYSIS_LIMIT)
    assert by_kind(selection) == {"doc": 16, "code": 64}
    assert selection.picked == 80
    assert (selection.chunks_seen, selection.docs_available, selection.code_available) == (400, 200, 200)
    summary = select_from_payloads(payloads, SUMMARY_LIMIT)
    assert by_kind(summary) == {"doc": 8, "code": 32}


def test_spare_doc_budget_spills_to_code(make_file: MakeFile) -> None:
    payloads = make_file("docs/guide.md", 3) + [p for i in range(100) for p in make_file(f"src/m{i}.py", 2)]
    assert by_kind(select_from_payloads(payloads, ANALYSIS_LIMIT)) == {"doc": 3, "code": 77}


def test_code_scarcer_than_its_share_docs_fill_the_rest(make_file: MakeFile) -> None:
    payloads = [p for i in range(10) for p in make_file(f"src/m{i}.py", 1)]
    payloads += [p for i in range(100) for p in make_file(f"docs/d{i}.md", 2)]
    selection = select_from_payloads(payloads, ANALYSIS_LIMIT)
    # Every code chunk is in; only then do docs pass their 16 and fill the empty slots.
    assert by_kind(selection) == {"code": 10, "doc": 70}
    assert [chunk.kind for chunk in selection.chunks] == ["code"] * 10 + ["doc"] * 70


def test_per_file_cap_takes_the_top_of_each_file(make_file: MakeFile) -> None:
    payloads = [p for i in range(40) for p in make_file(f"src/m{i:02d}.py", 10, month(i))]
    selection = select_from_payloads(payloads, ANALYSIS_LIMIT)
    assert selection.picked == 80
    assert max(per_file(selection).values()) == MAX_CHUNKS_PER_FILE
    assert {chunk.start_line for chunk in selection.chunks} == {1, 11, 21}


def test_per_file_cap_gives_way_only_when_files_run_out(make_file: MakeFile) -> None:
    payloads = make_file("src/big.py", 100) + make_file("src/small.py", 2) + make_file("notes.md", 50)
    selection = select_from_payloads(payloads, SUMMARY_LIMIT)
    assert selection.picked == 40
    # Capped pool: 3 + 2 code, 3 docs. Then past the cap, code first: the big file fills the rest.
    assert per_file(selection) == {"src/big.py": 35, "src/small.py": 2, "notes.md": 3}
    big = [chunk.start_line for chunk in selection.chunks if chunk.path == "src/big.py"]
    assert big == sorted(big)
    assert big[0] == 1


def test_directories_take_turns(make_file: MakeFile) -> None:
    # "new" holds the 30 newest files, "old" 30 older ones, root one file, "tiny" the oldest.
    payloads = [p for i in range(30) for p in make_file(f"new/n{i}.py", 1, month(100 + i))]
    payloads += [p for i in range(30) for p in make_file(f"old/o{i}.py", 1, month(50 + i))]
    payloads += make_file("main.py", 1, month(40)) + make_file("tiny/t.py", 1, month(1))
    selection = select_from_payloads(payloads, 10)
    dirs = Counter(chunk.path.split("/")[0] if "/" in chunk.path else "" for chunk in selection.chunks)
    assert dirs == {"new": 4, "old": 4, "": 1, "tiny": 1}
    # Turn order within a round: the group holding the newest file first.
    first_round = [chunk.path for chunk in selection.chunks[:4]]
    assert first_round == ["new/n29.py", "old/o29.py", "main.py", "tiny/t.py"]


def test_root_files_are_their_own_group(make_file: MakeFile) -> None:
    payloads = [p for i in range(20) for p in make_file(f"src/s{i}.py", 1, month(200))]
    payloads += [p for i in range(20) for p in make_file(f"r{i}.py", 1, month(10))]
    selection = select_from_payloads(payloads, 10)
    assert sum("/" not in chunk.path for chunk in selection.chunks) == 5


def test_readme_and_manifest_are_seeded_first(make_file: MakeFile) -> None:
    payloads = make_file("README.md", 5, "2010-01-01") + make_file("package.json", 1, None)
    payloads += make_file("docs/README.md", 1, month(99))
    payloads += [p for i in range(60) for p in make_file(f"docs/d{i}.md", 1, month(100 + i))]
    payloads += [p for i in range(200) for p in make_file(f"src/m{i}.ts", 1, month(100 + i))]
    selection = select_from_payloads(payloads, ANALYSIS_LIMIT)
    head = [(chunk.path, chunk.start_line, chunk.reason) for chunk in selection.chunks[:4]]
    assert head == [
        ("README.md", 1, "seed"),
        ("README.md", 11, "seed"),
        ("README.md", 21, "seed"),
        ("package.json", 1, "seed"),
    ]
    # The old README counts against the doc cap; the nested README is an ordinary doc.
    assert by_kind(selection) == {"doc": 16, "code": 64}
    assert all(chunk.reason != "seed" for chunk in selection.chunks[4:])
    assert "docs/README.md" not in per_file(selection)


def test_seed_rank_names() -> None:
    for path in ("README.md", "readme", "Readme.rst", "README.zh-CN.md"):
        assert seed_rank(path) == 0, path
    for path in ("package.json", "go.mod", "Cargo.toml", "pyproject.toml", "build.gradle.kts", "App.csproj"):
        assert seed_rank(path) == 1, path
    for path in ("docs/README.md", "web/package.json", "package-lock.json", "main.py", "READ.md"):
        assert seed_rank(path) is None, path


def test_seeds_share_turns_and_respect_a_small_doc_cap(make_file: MakeFile) -> None:
    payloads = make_file("README.md", 3) + make_file("README.ja.md", 3) + make_file("go.mod", 1)
    payloads += [p for i in range(100) for p in make_file(f"pkg/p{i}.go", 1)]
    payloads += [p for i in range(100) for p in make_file(f"doc/d{i}.md", 1)]
    selection = select_from_payloads(payloads, 10)  # doc cap 2
    docs = [(chunk.path, chunk.start_line) for chunk in selection.chunks if chunk.kind == "doc"]
    assert docs == [("README.md", 1), ("README.ja.md", 1)]
    assert selection.chunks[2].path == "go.mod"
    assert by_kind(selection) == {"doc": 2, "code": 8}


def test_newest_files_first_within_a_directory(make_file: MakeFile) -> None:
    dates = ["2026-01-01T00:00:00+00:00", "2026-01-01T00:30:00+02:00", "2025-12-31", "2026-02-01"]
    payloads = [p for i, date in enumerate(dates) for p in make_file(f"src/f{i}.py", 1, date)]
    payloads += [p for i in range(10) for p in make_file(f"src/old{i}.py", 1, "2019-01-01")]
    selection = select_from_payloads(payloads, 4)
    # 00:30+02:00 is 22:30Z the day before, so it sorts after midnight UTC.
    assert [chunk.path for chunk in selection.chunks] == ["src/f3.py", "src/f0.py", "src/f1.py", "src/f2.py"]


def test_undated_files_come_after_dated_ones(make_file: MakeFile) -> None:
    payloads = make_file("src/a_unset.py", 1) + make_file("src/b_null.py", 1, None)
    payloads += make_file("src/c_bad.py", 1, "not a date") + make_file("src/d_old.py", 1, "2001-01-01")
    payloads += make_file("src/e_new.py", 1, "2026-01-01")
    selection = select_from_payloads(payloads + make_file("src/f.py", 1), 4)
    assert [chunk.path for chunk in selection.chunks] == [
        "src/e_new.py",
        "src/d_old.py",
        "src/a_unset.py",
        "src/b_null.py",
    ]
    assert [chunk.last_modified_at for chunk in selection.chunks] == ["2026-01-01", "2001-01-01", None, None]


def test_tiny_repo_passes_through(make_file: MakeFile) -> None:
    payloads = make_file("docs/huge.md", 20) + make_file("README.md", 6) + make_file("src/app.py", 4)
    selection = select_from_payloads(payloads, ANALYSIS_LIMIT)
    assert selection.picked == 30
    assert per_file(selection) == {"docs/huge.md": 20, "README.md": 6, "src/app.py": 4}
    assert [chunk.reason for chunk in selection.chunks] == ["seed"] * 6 + ["code"] * 4 + ["doc"] * 20


def test_exactly_limit_chunks_pass_through(make_file: MakeFile) -> None:
    payloads = [p for i in range(8) for p in make_file(f"docs/d{i}.md", 5)]
    selection = select_from_payloads(payloads, 40)
    assert selection.picked == 40


def test_median_code_date_is_over_files_not_chunks(make_file: MakeFile) -> None:
    payloads = make_file("src/big.py", 50, "2020-01-01") + make_file("src/a.py", 1, "2026-03-01")
    payloads += make_file("src/b.py", 1, "2026-04-01") + make_file("src/c.py", 1, None)
    payloads += make_file("docs/x.md", 1, "2027-01-01") + make_file("docs/y.md", 1, "2027-02-01")
    selection = select_from_payloads(payloads, 10)
    assert selection.median_code == "2026-03-01"


def test_median_code_is_none_without_dated_code(make_file: MakeFile) -> None:
    payloads = make_file("src/a.py", 2) + make_file("docs/x.md", 1, "2027-01-01")
    assert select_from_payloads(payloads, 10).median_code is None


def test_same_selection_whatever_the_scroll_order(make_file: MakeFile, make_payload) -> None:
    payloads = [p for i in range(30) for p in make_file(f"d{i % 4}/f{i}.py", 5, month(i % 7))]
    payloads += [p for i in range(30) for p in make_file(f"docs/g{i}.md", 2, month(i % 3))]
    payloads += make_file("README.md", 4, month(0)) + make_file("Cargo.toml", 1)
    # Two chunks of one file on the same lines differ only in text: the order still decides.
    payloads += [make_payload("d0/f0.py", 1, month(0), text=text) for text in ("zzz", "")]
    expected = msgspec.json.encode(select_from_payloads(payloads, ANALYSIS_LIMIT))
    rng = random.Random(7)
    for _ in range(5):
        rng.shuffle(payloads)
        assert msgspec.json.encode(select_from_payloads(payloads, ANALYSIS_LIMIT)) == expected


def test_zero_limit_and_negative_limit(make_file: MakeFile) -> None:
    payloads = make_file("README.md", 2) + make_file("src/a.py", 2)
    assert select_from_payloads(payloads, 0).chunks == []
    with pytest.raises(ValueError, match="limit"):
        select_from_payloads(payloads, -1)


def test_empty_repo() -> None:
    selection = select_from_payloads([], ANALYSIS_LIMIT)
    assert (selection.chunks, selection.median_code, selection.chunks_seen) == ([], None, 0)


def test_select_analysis_chunks_scrolls_the_store_in_pages(make_file: MakeFile, paged_source) -> None:
    payloads = [p for i in range(300) for p in make_file(f"src/m{i}.py", 2, month(i % 50))]
    store = paged_source(payloads)
    selection = select_analysis_chunks(store, "acme-widgets", ANALYSIS_LIMIT, page_size=256)
    assert store.pages == [256, 256, 88]
    assert selection == select_from_payloads(payloads, ANALYSIS_LIMIT)
    assert select_analysis_chunks(store, "other-repo", ANALYSIS_LIMIT).chunks == []
