"""CodeFacts from payloads, and docs reassembled from their chunks with real line numbers."""

from __future__ import annotations

import random
from collections.abc import Callable

import msgspec

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_claims import CodeFacts, Site, extract_claims, reassemble_docs

MakeChunk = Callable[..., ChunkPayload]


def test_facts_hold_files_folders_symbols_identifiers_and_dates(code_chunks: list[ChunkPayload]) -> None:
    facts = CodeFacts.from_payloads(code_chunks)
    assert "src/app/auth.py" in facts.code_files
    assert "docs/guide/setup.md" in facts.files
    assert "docs/guide/setup.md" not in facts.code_files
    assert {"src", "src/app", "docs", "docs/guide"} <= facts.directories
    assert [(s.path, s.line, s.symbol_type) for s in facts.symbols["refresh"]] == [("src/app/auth.py", 10, "method")]
    assert "Session.refresh" in facts.qualified_symbols
    assert "app.auth.login" in facts.qualified_symbols
    assert facts.modules["app.auth"] == "src/app/auth.py"
    assert facts.modules["app"] == "src/app"
    assert facts.identifiers["NATS_URL"] == Site("src/app/auth.py", 4)
    assert facts.identifiers["--dry-run"] == Site("src/app/cli.py", 9)
    assert facts.identifiers["max-retries"] == Site("pyproject.toml", 5)
    assert facts.last_modified["src/app/auth.py"] == "2025-09-30T09:00:00+00:00"
    assert facts.last_modified["README.md"] is None  # recency scan skipped: unknown, never "now"
    assert facts.directory_last_modified["src/app"] == "2026-01-10T12:00:00+00:00"


def test_identifier_site_is_the_first_place_whatever_the_order(chunk: MakeChunk) -> None:
    payloads = [
        chunk("b/z.py", "x = 1\nTOKEN_LIMIT = 2\n"),
        chunk("a/y.py", "\n\n\nuse(TOKEN_LIMIT)\n", start_line=20),
        chunk("a/y.py", "TOKEN_LIMIT\n", start_line=40),
    ]
    for _ in range(3):
        random.shuffle(payloads)
        assert CodeFacts.from_payloads(payloads).identifiers["TOKEN_LIMIT"] == Site("a/y.py", 23)


def test_docs_reassemble_in_line_order_with_windows_deduplicated(chunk: MakeChunk) -> None:
    lines = [f"line {n}" for n in range(1, 13)]
    lines[10] = "Call `load_config()` here."
    payloads = [
        chunk("docs/a.md", "\n".join(lines[9:12]), start_line=10, symbol="Usage", symbol_type="section"),
        chunk("docs/a.md", "\n".join(lines[2:6]), start_line=3, window=1, window_count=2),
        chunk("docs/a.md", "\n".join(lines[0:4]), start_line=1, window=0, window_count=2),
        chunk("src/x.py", "def f(): ...\n"),
    ]
    (doc,) = reassemble_docs(payloads)
    assert doc.path == "docs/a.md"
    assert doc.first_line == 1
    assert doc.text.splitlines()[:6] == lines[:6]
    assert doc.text.splitlines()[6:9] == ["", "", ""]  # lines no chunk covers stay, empty
    claims = extract_claims(doc.path, doc.text, first_line=doc.first_line)
    assert [(c.line, c.target) for c in claims] == [(11, "load_config")]


def test_doc_dates_treat_unset_as_unknown(chunk: MakeChunk) -> None:
    (doc,) = reassemble_docs([chunk("docs/a.md", "x", date=msgspec.UNSET)])
    assert doc.last_modified_at is None
