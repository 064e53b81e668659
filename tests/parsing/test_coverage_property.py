"""Property: whatever the text, extension and budget, chunks cover every non-blank line."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sextant.parsing import Chunk, build_chunks

_FRAGMENTS = [
    "def f(x):",
    "    return x",
    "class A:",
    "# Title",
    "## Sub",
    "=====",
    "-----",
    "== Part",
    "----",
    "```",
    "{",
    "}",
    "fn main() {",
    "func (s *S) M() {",
    "/** doc */",
    "@decorator",
    "",
    "   ",
    "\t",
]
_LINES = st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=120), st.text(min_size=300, max_size=3000))
_EXTENSIONS = [".py", ".js", ".ts", ".tsx", ".go", ".rs", ".c", ".rb", ".php", ".cs", ".java", ".cpp"]
_EXTENSIONS += [".md", ".rst", ".adoc", ".txt", ".yaml", ".zzz"]


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(_LINES, max_size=120),
    newline=st.sampled_from(["\n", "\r\n", "\r"]),
    extension=st.sampled_from(_EXTENSIONS),
    max_chars=st.integers(min_value=64, max_value=3000),
)
def test_chunks_cover_every_line_within_budget(
    lines: list[str],
    newline: str,
    extension: str,
    max_chars: int,
    find_uncovered: Callable[[str, list[Chunk]], list[int]],
) -> None:
    text = newline.join(lines)
    chunks = build_chunks(f"random/file{extension}", text, max_chars=max_chars)
    assert find_uncovered(text, chunks) == []
    assert all(len(chunk.dense_text) <= max_chars for chunk in chunks)
    for chunk in chunks:
        assert 0 <= chunk.window < chunk.window_count
        assert 1 <= chunk.start_line <= chunk.end_line
