"""A long module `__getattr__` the indexer cut into windows still supplies every name it tests for.

Shaped on click 8.3's `__getattr__`, whose deprecation shims (`OptionParser`, `get_binary_stream`,
`get_text_stream`, …) run past one chunk: the analyzer's door (index payloads) read only the first
window, which does not parse alone, so it took the hook as open-ended with no names; history then
showed `get_text_stream` removed from `utils.py` and `click.get_text_stream` came out contradicted in
`make run` while `sextant docs-check` (whole files) verified it.
"""

from __future__ import annotations

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_claims import check_docs
from sextant.doc_claims.judging.code_facts import CodeFacts, joined_windows

from .conftest import MakeChunk

FIRST = """\
def __getattr__(name: str) -> object:
    import warnings

    if name == "OptionParser":
        from .parser import _OptionParser

        warnings.warn("'OptionParser' is deprecated.", DeprecationWarning, stacklevel=2)
        return _OptionParser
"""
SECOND = """\
        warnings.warn("'OptionParser' is deprecated.", DeprecationWarning, stacklevel=2)
        return _OptionParser

    if name == "get_text_stream":
        from .utils import _get_text_stream

        warnings.warn("'get_text_stream' is deprecated.", DeprecationWarning, stacklevel=2)
        return _get_text_stream

    raise AttributeError(name)
"""


def _windows(chunk: MakeChunk) -> list[ChunkPayload]:
    fields = {
        "symbol": "__getattr__",
        "symbol_type": "function",
        "window_count": 2,
        "signature": "def __getattr__(name)",
    }
    return [
        chunk("acme/__init__.py", FIRST, start_line=10, window=0, **fields),
        chunk("acme/__init__.py", SECOND, start_line=16, window=1, **fields),
    ]


def test_the_windows_are_joined_into_the_whole_hook(chunk: MakeChunk) -> None:
    assert joined_windows([FIRST, SECOND]).count("return _OptionParser") == 1
    facts = CodeFacts.from_payloads([*_windows(chunk), chunk("acme/utils.py", "def _get_text_stream():\n    pass\n")])
    hook = facts.lazy_modules["acme/__init__.py"]
    assert hook.supplied == {"OptionParser", "get_text_stream"}  # before: none (the first window alone)
    assert not hook.open_ended  # it raises for every other name


def test_a_name_the_joined_hook_supplies_is_verified_through_the_index(chunk: MakeChunk) -> None:
    doc = chunk("docs/streams.md", "# Streams\n\nUse `acme.get_text_stream` for text.\n")
    payloads = [*_windows(chunk), chunk("acme/utils.py", "def _get_text_stream():\n    pass\n"), doc]
    found = {f.ref: f for f in check_docs(payloads).findings}
    assert found["acme.get_text_stream"].status == "verified"
    assert "__getattr__" in found["acme.get_text_stream"].evidence
