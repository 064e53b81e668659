"""The parse process imports only our code and Python's, never a module of the folder it starts in.

The embedded runtime runs the indexer where the user runs the CLI, most often inside the repository
being indexed: a `queue.py` or `msgspec.py` of that repository must not run in the worker.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from sextant.embedding import SparseEncoder
from sextant.indexer.parse_process import BlobToParse, ParsedChunks, ParseProcess, ParseRequest

SHADOWS = ("msgspec", "queue", "struct", "pickle")
"""Modules the worker imports at start, by names a repository's files may have."""


@pytest.mark.process
def test_the_parse_process_ignores_modules_of_the_folder_it_starts_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "ran"
    for name in SHADOWS:
        (tmp_path / f"{name}.py").write_text(f"open({str(marker)!r}, 'a').write({name!r})\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    worker = ParseProcess()
    try:
        request = ParseRequest(
            [BlobToParse("a.py", b"def f():\n    return 1\n")], 1 << 20, 2000, pickle.dumps(SparseEncoder())
        )
        reply = worker.submit(request).result(timeout=120)
    finally:
        worker.close()
    assert not marker.exists(), f"the worker imported {marker.read_text()} from its working folder"
    assert isinstance(reply.outcomes[0], ParsedChunks)
