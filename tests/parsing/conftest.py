"""Fixtures for the parsing tests: the sample sources and a check that chunks cover every line."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sextant.parsing import Chunk

SAMPLES = Path(__file__).parent / "samples"


@pytest.fixture
def sample() -> Callable[[str], str]:
    """Read a sample source file by name."""

    def read(name: str) -> str:
        return (SAMPLES / name).read_text(encoding="utf-8")

    return read


def _pieces_cover(line: str, pieces: list[str]) -> bool:
    covered_to = 0
    for piece in pieces:
        # The latest place the piece can sit while still touching what is covered so far.
        position = line.rfind(piece, 0, covered_to + len(piece))
        if position < 0:
            return False
        covered_to = max(covered_to, position + len(piece))
    return covered_to >= len(line)


def uncovered_lines(text: str, chunks: list[Chunk]) -> list[int]:
    """Non-blank lines (1-based) that no chunk holds in both its line range and its text."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    missing = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        covering = [chunk for chunk in chunks if chunk.start_line <= number <= chunk.end_line]
        if any(line in chunk.text for chunk in covering):
            continue
        pieces = [chunk.text for chunk in covering if chunk.start_line == chunk.end_line == number]
        if not _pieces_cover(line, pieces):
            missing.append(number)
    return missing


@pytest.fixture
def find_uncovered() -> Callable[[str, list[Chunk]], list[int]]:
    """The non-blank lines of a text that the chunks miss (should always be empty)."""
    return uncovered_lines
