"""Chunks: dense and sparse texts, the budget, oversized symbols as windows, odd input."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from sextant.parsing import MIN_MAX_CHARS, Chunk, build_chunks, decode_source


def _big_function(lines: int) -> str:
    body = "\n".join(f"    total = total + compute_value_{n}(order, rate)  # step {n}" for n in range(lines))
    head = 'def settle_orders(order, rate):\n    """Settle every order."""\n    total = 0\n'
    return f"{head}{body}\n    return total\n"


def test_small_function_is_one_chunk_with_metadata(sample: Callable[[str], str]) -> None:
    chunks = build_chunks("src/shop/inventory.py", sample("inventory.py"), max_chars=4000, repo_label="shop")
    restock = next(c for c in chunks if c.name == "restock")
    assert (restock.window, restock.window_count) == (0, 1)
    assert (restock.start_line, restock.end_line) == (36, 41)
    assert (restock.symbol_start_line, restock.symbol_end_line) == (36, 41)
    assert restock.kind == "code"
    assert restock.path == "src/shop/inventory.py"
    title = "Python function `restock` (repository: shop)\nFile: src/shop/inventory.py\n"
    assert restock.dense_text.startswith(title)
    assert "Package: shop.inventory" in restock.dense_text
    assert "Put `quantity` units of `sku` back on the shelf." in restock.dense_text
    assert restock.dense_text.endswith(restock.text)
    size = next(c for c in chunks if c.name == "size")
    assert "Python method `size` in `Inventory`" in size.dense_text
    assert "Annotations: @property" in size.dense_text


def test_sparse_text_includes_metadata_words() -> None:
    chunks = build_chunks("pkg/orders.py", "def process_order(order):\n    return order\n", max_chars=1000)
    sparse = chunks[0].sparse_text
    for word in ("python", "function", "process_order", "pkg/orders.py", "return order"):
        assert word in sparse
    assert sparse.split("\n")[0] == "python function process_order pkg.orders pkg/orders.py"


def test_oversized_symbol_becomes_overlapping_windows_covering_all_lines(
    find_uncovered: Callable[[str, list[Chunk]], list[int]],
) -> None:
    text = _big_function(400)
    chunks = build_chunks("settle.py", text, max_chars=2000)
    windows = [c for c in chunks if c.name == "settle_orders"]
    assert len(windows) > 5
    assert [c.window for c in windows] == list(range(len(windows)))
    assert {c.window_count for c in windows} == {len(windows)}
    assert {(c.symbol_start_line, c.symbol_end_line) for c in windows} == {(1, 404)}
    for previous, following in itertools.pairwise(windows):
        assert following.start_line <= previous.end_line  # consecutive windows overlap
        assert following.start_line > previous.start_line
    assert windows[0].start_line == 1
    assert windows[-1].end_line == 404
    # Every window repeats the metadata and the signature, so each one says what it belongs to.
    assert all("def settle_orders(order, rate):" in c.dense_text.split("\n\n")[1] for c in windows)
    assert all(len(c.dense_text) <= 2000 for c in chunks)
    assert find_uncovered(text, chunks) == []


def test_large_class_outline_windows_map_to_file_lines(
    find_uncovered: Callable[[str, list[Chunk]], list[int]],
) -> None:
    fields = "\n".join(f"    field_{n}: int = {n}" for n in range(300))
    text = f"class Config:\n{fields}\n\n    def load(self):\n        return 1\n"
    chunks = build_chunks("config.py", text, max_chars=1500)
    outline = [c for c in chunks if c.name == "Config"]
    assert len(outline) > 1
    assert outline[-1].end_line == 303  # the header of `load` is the outline's last real line
    assert find_uncovered(text, chunks) == []


def test_no_dense_text_exceeds_the_budget(sample: Callable[[str], str]) -> None:
    for name in ("inventory.py", "OrderController.java", "shapes.rs", "greeter.rb"):
        for max_chars in (MIN_MAX_CHARS, 150, 400, 10_000):
            chunks = build_chunks(name, sample(name), max_chars=max_chars)
            assert chunks
            assert all(len(c.dense_text) <= max_chars for c in chunks)


def test_budget_below_the_minimum_is_refused() -> None:
    with pytest.raises(ValueError, match="max_chars"):
        build_chunks("a.py", "x = 1\n", max_chars=MIN_MAX_CHARS - 1)


def test_doc_chunks_are_kind_doc() -> None:
    chunks = build_chunks("docs/guide.md", "# Guide\n\nHello.\n", max_chars=1000)
    assert [(c.kind, c.symbol_type, c.name, c.language) for c in chunks] == [("doc", "section", "Guide", "markdown")]
    assert "Markdown section `Guide`" in chunks[0].dense_text


def test_output_is_deterministic(sample: Callable[[str], str]) -> None:
    text = _big_function(200) + sample("inventory.py")
    assert build_chunks("x.py", text, max_chars=900) == build_chunks("x.py", text, max_chars=900)


def test_empty_and_blank_files_have_no_chunks() -> None:
    assert build_chunks("empty.py", "", max_chars=1000) == []
    assert build_chunks("blank.md", "\n  \n\t\n", max_chars=1000) == []


def test_crlf_and_lone_cr_line_endings(find_uncovered: Callable[[str, list[Chunk]], list[int]]) -> None:
    text = "import os\r\n\r\ndef a():\r\n    return 1\r\n\rdef b():\r    return 2\r\n"
    chunks = build_chunks("endings.py", text, max_chars=1000)
    by_name = {c.name: c for c in chunks}
    assert (by_name["a"].start_line, by_name["a"].end_line) == (3, 4)
    assert (by_name["b"].start_line, by_name["b"].end_line) == (6, 7)
    assert "\r" not in "".join(c.text for c in chunks)
    assert find_uncovered(text, chunks) == []


def test_non_utf8_bytes_are_replaced_not_rejected() -> None:
    text = decode_source(b"\xef\xbb\xbfdef caf\xe9():\n    return '\xff'\n")
    assert text.startswith("def caf\ufffd()")
    chunks = build_chunks("latin1.py", text, max_chars=1000)
    assert any("return" in c.text for c in chunks)


def test_one_megabyte_single_line(find_uncovered: Callable[[str, list[Chunk]], list[int]]) -> None:
    line = "".join(f"{n:07d}," for n in range(131_072))  # 1 MiB on one line
    for path in ("data.csv", "blob.py"):
        chunks = build_chunks(path, line, max_chars=8000)
        assert len(chunks) > 100
        assert all(len(c.dense_text) <= 8000 for c in chunks)
        assert all((c.start_line, c.end_line) == (1, 1) for c in chunks)
        assert [c.window for c in chunks] == list(range(len(chunks)))
        assert find_uncovered(line, chunks) == []
