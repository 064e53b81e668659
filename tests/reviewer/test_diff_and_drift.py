"""Reading a diff, and finding docs that a change makes stale."""

from __future__ import annotations

from collections.abc import Iterator

from sextant.chunkstore import ChunkPayload
from sextant.reviewer.diff_reading import read_diff
from sextant.reviewer.doc_drift import find_doc_drift
from sextant.reviewer.findings import parse_findings
from sextant.reviewer.retrieval import build_query

from ..support.payloads import chunk_payload

DIFF = """diff --git a/src/auth.py b/src/auth.py
index 1111111..2222222 100644
--- a/src/auth.py
+++ b/src/auth.py
@@ -1,6 +1,6 @@
-def login_user(name, password):
+def authenticate(name, password):
     \"\"\"Check a password.\"\"\"
     return check(name, password)
-def refresh(token):
+def refresh(token, ttl):
     return token
diff --git a/src/legacy.py b/src/legacy.py
deleted file mode 100644
--- a/src/legacy.py
+++ /dev/null
@@ -1,2 +0,0 @@
-def old_helper():
-    pass
"""


def doc(path: str, text: str) -> ChunkPayload:
    lines = text.count("\n") + 1
    return chunk_payload("r", path, text, blob_sha="b", kind="doc", language="markdown", symbol=None, end_line=lines)


def test_read_diff_finds_removed_rewritten_symbols_and_paths() -> None:
    summary = read_diff(DIFF)
    assert summary.removed_symbols == {"login_user": "src/auth.py", "old_helper": "src/legacy.py"}
    assert summary.rewritten_symbols == {"refresh": "src/auth.py"}
    assert summary.removed_paths == ["src/legacy.py"]
    assert "authenticate" in summary.touched_identifiers()


def code(path: str) -> ChunkPayload:
    return chunk_payload("r", path, "def old_helper():\n    pass\n", blob_sha="c", symbol=None)


def test_docs_naming_what_the_change_removes_are_doc_drift() -> None:
    payloads = [
        code("src/legacy.py"),
        doc("docs/design.md", "# Auth\n\nCall `login_user()` to sign in.\nSee [legacy](../src/legacy.py).\n"),
        doc("docs/fresh.md", "# Auth\n\nCall `authenticate()`.\n"),
        doc("CHANGELOG.md", "## 1.0\n\n- Added `login_user()`.\n"),
    ]
    findings = find_doc_drift(payloads, read_diff(DIFF)).findings
    assert {(f.doc, f.line, f.kind) for f in findings} >= {("docs/design.md", 3, "doc_drift")}
    assert all(f.doc == "docs/design.md" for f in findings)
    assert "login_user" in findings[0].message
    [link] = [f for f in findings if f.line == 4]  # a link relative to the doc's folder
    assert "src/legacy.py" in link.message


def test_drift_reads_only_docs_that_mention_the_change_up_to_the_cap() -> None:
    read: list[str] = []

    def stream() -> Iterator[ChunkPayload]:
        yield code("src/legacy.py")
        for number in range(30):  # docs that never mention the change: their text is not kept
            read.append(f"docs/other_{number}.md")
            yield doc(f"docs/other_{number}.md", "# Other\n\nCall `login()` or `user()` here.\n")
        for number in range(5):
            yield doc(f"docs/auth_{number}.md", "# Auth\n\nCall `login_user()` to sign in.\n")

    drift = find_doc_drift(stream(), read_diff(DIFF), max_docs=3)
    assert len(read) == 30  # one pass over the stream
    assert (drift.docs_read, drift.docs_left_out) == (3, 2)
    assert [f.doc for f in drift.findings] == ["docs/auth_0.md", "docs/auth_1.md", "docs/auth_2.md"]
    assert all("login_user" in f.message for f in drift.findings)


def test_a_change_that_removes_and_rewrites_nothing_reads_nothing() -> None:
    added_only = "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1,1 +1,2 @@\n x = 1\n+y = 2\n"

    def stream() -> Iterator[ChunkPayload]:
        raise AssertionError("the store was read")
        yield  # pragma: no cover

    assert find_doc_drift(stream(), read_diff(added_only)).findings == []


def test_query_is_bounded() -> None:
    summary = read_diff(DIFF * 200)
    query = build_query("Rename login", "x" * 10_000, summary, 4_000)
    assert len(query) <= 4_000
    assert query.startswith("Rename login")


def test_model_findings_are_parsed_from_json_amid_prose() -> None:
    text = 'Here you go:\n[{"path": "src/auth.py", "line": 2, "severity": "error", "message": "breaks callers"}]'
    [finding] = parse_findings(text)
    assert (finding.path, finding.line, finding.severity, finding.kind) == ("src/auth.py", 2, "error", "review")
    assert parse_findings("no json here")[0].message == "no json here"
    assert parse_findings("[]") == []
