"""check_docs end to end over payloads: a stale design doc flagged, a fresh README trusted."""

from __future__ import annotations

import random
from collections.abc import Callable

import msgspec
import pytest

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_claims import DocCheckReport, check_docs, is_history_doc, render_findings_markdown

MakeChunk = Callable[..., ChunkPayload]

DESIGN = """\
# Auth design (2024)

Requests go through `authenticate_user()` in `src/app/auth.py`, which reads `NATS_URL`.
Tokens are renewed by `TokenRefresher.renew` on a timer.
"""

README = """\
# Acme

Log in with `login()`; sessions are `Session` objects (the `Session` class) refreshed by
:meth:`Session.refresh`. Configure `NATS_URL`, then:

```bash
acme index --force
```
"""

CHANGELOG = "# Changelog\n\n## 0.9\n- Renamed `authenticate_user()` to `login()`.\n- Dropped `--legacy`.\n"


@pytest.fixture
def repository(chunk: MakeChunk, code_chunks: list[ChunkPayload]) -> list[ChunkPayload]:
    return [
        *code_chunks,
        chunk("docs/design.md", DESIGN, date="2024-03-01T00:00:00Z", symbol="Auth design", symbol_type="section"),
        chunk("docs/notes.md", README, date="2026-01-05T00:00:00Z"),
        chunk("CHANGELOG.md", CHANGELOG, date="2026-01-05T00:00:00Z"),
        chunk("docs/changelog/0.8.md", "- `gone_function()`\n", date="2025-01-01T00:00:00Z"),
    ]


def test_stale_design_doc_is_flagged_and_fresh_doc_is_trusted(repository: list[ChunkPayload]) -> None:
    report = check_docs(repository)
    design = [f for f in report.findings if f.doc == "docs/design.md"]
    assert [(f.line, f.ref, f.status) for f in design] == [
        (3, "NATS_URL", "verified"),  # the file changed later, the name did not: no alarm
        (3, "authenticate_user()", "contradicted"),
        (3, "src/app/auth.py", "verified"),
        (4, "TokenRefresher.renew", "unverifiable"),
    ]
    fresh = [f for f in report.findings if f.doc == "docs/notes.md"]
    assert {f.status for f in fresh} == {"verified"}
    assert {f.ref for f in fresh} == {
        "login()",
        "Session",
        "Session.refresh",
        "NATS_URL",
        "acme index",
        "--force",
    }
    summaries = {s.doc: s for s in report.docs}
    assert summaries["docs/design.md"].likely_outdated
    assert (summaries["docs/design.md"].contradicted, summaries["docs/design.md"].outdated) == (1, 0)
    assert not summaries["docs/notes.md"].likely_outdated
    assert summaries["README.md"].verified == 0  # a doc without claims is still listed
    assert report.totals.docs == 4
    assert report.totals.likely_outdated_docs == 1
    assert report.totals.claims == len(report.findings)


def test_changelogs_and_release_notes_are_skipped(repository: list[ChunkPayload]) -> None:
    report = check_docs(repository)
    assert report.skipped_docs == ["CHANGELOG.md", "docs/changelog/0.8.md"]
    assert not any(f.doc in report.skipped_docs for f in report.findings)
    assert not any(s.doc in report.skipped_docs for s in report.docs)


@pytest.mark.parametrize(
    ("path", "history"),
    [
        ("CHANGELOG.md", True),
        ("CHANGES.rst", True),
        ("HISTORY.md", True),
        ("NEWS.txt", True),
        ("RELEASE_NOTES.md", True),
        ("release-notes/2.0.md", True),
        ("docs/changelog/1.0.md", True),
        ("docs/Release-Notes.adoc", True),
        ("docs/releasing.md", False),
        ("docs/design.md", False),
        ("README.md", False),
    ],
)
def test_history_doc_names(path: str, history: bool) -> None:
    assert is_history_doc(path) is history


def test_report_is_deterministic_whatever_the_payload_order(repository: list[ChunkPayload]) -> None:
    first = msgspec.json.encode(check_docs(repository))
    for seed in range(3):
        shuffled = list(repository)
        random.Random(seed).shuffle(shuffled)
        assert msgspec.json.encode(check_docs(iter(shuffled))) == first


def test_report_round_trips_as_json(repository: list[ChunkPayload]) -> None:
    report = check_docs(repository)
    assert msgspec.json.decode(msgspec.json.encode(report), type=DocCheckReport) == report


def test_rendering_puts_contradictions_first_and_respects_the_limit(repository: list[ChunkPayload]) -> None:
    report = check_docs(repository)
    text = render_findings_markdown(report, limit=3)
    assert "verified:" not in text
    lines = text.splitlines()
    assert lines[0].startswith("Doc claims checked against the indexed code: 4 docs, 10 claims")
    assert "Changelogs and release notes not checked (history): CHANGELOG.md, docs/changelog/0.8.md." in text
    assert "Docs likely outdated: docs/design.md (1 contradicted, 0 outdated)." in text
    assert "Docs whose claims check out: docs/notes.md (6 verified)." in text
    bullets = [line for line in lines if line.startswith("- ")]
    assert bullets[0] == (
        "- docs/design.md:3 `authenticate_user()` (symbol) — contradicted: "
        "no file or symbol named authenticate_user in the indexed code"
    )
    assert len(bullets) == 1  # verified and unverifiable claims are counts, never bullets
    read_in_place = render_findings_markdown(report, against="the code at 1a2b3c4d5e6f").splitlines()[0]
    assert read_in_place.startswith("Doc claims checked against the code at 1a2b3c4d5e6f: 4 docs")


def test_rendering_cleans_repository_text(chunk: MakeChunk) -> None:
    hostile = "See [a](docs/evil\u202efile\u200b.md) and [b](docs/a`b.md).\n"
    report = check_docs([chunk("docs/x.md", hostile), chunk("src/a.py", "x = 1\n")])
    assert len(report.findings) == 2
    text = render_findings_markdown(report)
    assert "\u202e" not in text
    assert "\u200b" not in text
    bullets = [line for line in text.splitlines() if line.startswith("- docs/x.md")]
    assert len(bullets) == 1  # one bullet per doc line, however many alarms it has
    assert bullets[0].count("`") == 4


def test_rendering_without_docs(chunk: MakeChunk) -> None:
    report = check_docs([chunk("src/a.py", "x = 1\n")])
    assert render_findings_markdown(report) == "No documentation in the index.\n"
