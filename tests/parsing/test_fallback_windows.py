"""Files without a trustworthy parse are indexed as windows — never dropped."""

from __future__ import annotations

import logging
from collections.abc import Callable

import pytest

from sextant.parsing import Chunk, build_chunks, parse_symbols

BROKEN_PYTHON = "\n".join(["def ok():", "    return 1", ""] + [f"))) ((( def {n} class :: {{" for n in range(40)])


def test_unknown_extension_and_config_become_windows() -> None:
    config = "\n".join(f"key_{n}: value {n}" for n in range(100))
    symbols = parse_symbols("deploy/values.yaml", config)
    assert [s.symbol_type for s in symbols] == ["window", "window"]
    assert symbols[0].language == "yaml"
    assert (symbols[0].start_line, symbols[0].end_line, symbols[1].start_line, symbols[1].end_line) == (
        1,
        60,
        52,
        100,
    )
    unknown = parse_symbols("data/blob.xyz", "some\ncontent\n")
    assert [(s.symbol_type, s.language) for s in unknown] == [("window", "text")]


def test_error_riddled_source_falls_back_to_windows_covering_every_line(
    caplog: pytest.LogCaptureFixture, find_uncovered: Callable[[str, list[Chunk]], list[int]]
) -> None:
    with caplog.at_level(logging.INFO, logger="sextant.parsing"):
        chunks = build_chunks("broken.py", BROKEN_PYTHON, max_chars=2000)
    assert {c.symbol_type for c in chunks} == {"window"}
    assert find_uncovered(BROKEN_PYTHON, chunks) == []
    assert "broken.py" in caplog.text


def test_a_small_syntax_error_keeps_symbols_and_all_lines(
    find_uncovered: Callable[[str, list[Chunk]], list[int]],
) -> None:
    text = "import os\n\ndef good():\n    return 1\n\ndef bad(:\n    pass\n\nclass Fine:\n    x = 1\n"
    chunks = build_chunks("slightly_broken.py", text, max_chars=2000)
    assert "good" in {c.name for c in chunks}
    assert find_uncovered(text, chunks) == []


def test_minified_code_is_cut_by_characters(find_uncovered: Callable[[str, list[Chunk]], list[int]]) -> None:
    text = "".join(f"function f{n}(a){{return a+{n}}}" for n in range(3000))
    chunks = build_chunks("dist/app.min.js", text, max_chars=1000)
    assert {c.symbol_type for c in chunks} == {"window"}
    assert all(len(c.dense_text) <= 1000 for c in chunks)
    assert find_uncovered(text, chunks) == []
