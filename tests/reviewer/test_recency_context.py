"""Review-context rules (docs/design.md §8): stale docs dropped unless they earned their place,
dates annotated, undated untouched."""

from __future__ import annotations

import msgspec

from sextant.reviewer.recency_context import (
    KEEP_STALE_DOC_SCORE,
    RetrievedChunk,
    apply_recency_to_context,
    chunk_header,
    retrieved_code_median,
)

from ..support.payloads import chunk_payload


def chunk(path: str, date: str | msgspec.UnsetType | None, score: float | None = 0.5) -> RetrievedChunk:
    kind = "doc" if path.endswith(".md") else "code"
    payload = chunk_payload(
        "r", path, "text", blob_sha="b", kind=kind, language="x", symbol=None, start_line=3, end_line=9,
        last_modified_at=date,
    )  # fmt: skip
    return RetrievedChunk(payload=payload, score=score)


CODE = [chunk("src/a.py", "2026-05-01"), chunk("src/b.py", "2026-06-01"), chunk("src/c.py", "2026-07-01")]


def decisions_for(*chunks: RetrievedChunk) -> dict[str, tuple[bool, str, str]]:
    decisions, _ = apply_recency_to_context(list(chunks))
    return {d.chunk.payload.path: (d.kept, d.reason, d.header) for d in decisions}


def test_stale_doc_is_dropped() -> None:
    result = decisions_for(*CODE, chunk("docs/design.md", "2024-08-12", score=0.31))
    kept, reason, _ = result["docs/design.md"]
    assert not kept
    assert "stale doc dropped" in reason
    assert "0.31 < 0.6" in reason


def test_high_scoring_stale_doc_is_kept_and_labelled() -> None:
    result = decisions_for(*CODE, chunk("docs/design.md", "2024-08-12", score=KEEP_STALE_DOC_SCORE))
    kept, reason, header = result["docs/design.md"]
    assert kept
    assert "0.60 ≥ 0.6" in reason
    assert header == "// docs/design.md:L3-L9 (documentation — verify against code) (last modified 2024-08-12)"


def test_stale_doc_without_a_rerank_score_has_not_earned_its_place() -> None:
    kept, reason, _ = decisions_for(*CODE, chunk("docs/design.md", "2024-08-12", score=None))["docs/design.md"]
    assert not kept
    assert "no rerank score" in reason


def test_fresh_doc_is_kept_with_the_doc_note() -> None:
    kept, _, header = decisions_for(*CODE, chunk("docs/guide.md", "2026-04-01", score=0.1))["docs/guide.md"]
    assert kept
    assert "(documentation — verify against code)" in header


def test_undated_chunks_are_untouched() -> None:
    result = decisions_for(*CODE, chunk("docs/old.md", None, score=0.0), chunk("src/x.py", msgspec.UNSET))
    assert result["docs/old.md"][0]
    assert result["docs/old.md"][2] == "// docs/old.md:L3-L9 (documentation — verify against code)"
    assert result["src/x.py"] == (True, "code, age unknown (no demotion)", "// src/x.py:L3-L9")


def test_no_dated_code_means_no_demotion() -> None:
    result = decisions_for(chunk("src/a.py", None), chunk("docs/design.md", "2020-01-01", score=0.0))
    assert result["docs/design.md"][0]


def test_median_comes_from_retrieved_code_only() -> None:
    chunks = [*CODE, chunk("docs/newer.md", "2030-01-01"), chunk("docs/older.md", "2000-01-01")]
    assert retrieved_code_median(chunks) is not None
    assert retrieved_code_median(chunks) == retrieved_code_median(CODE)
    assert (retrieved_code_median(CODE) or "").startswith("2026-06-01")


def test_code_header_has_only_the_date() -> None:
    assert chunk_header(CODE[0].payload) == "// src/a.py:L3-L9 (last modified 2026-05-01)"


def test_header_day_is_the_shared_calendar_day_not_a_slice_of_the_string() -> None:
    # ISO 8601 basic format: cutting the first ten characters would print "20260528T2".
    assert chunk_header(chunk("src/a.py", "20260528T233000-0500").payload).endswith("(last modified 2026-05-28)")
    # 23:30 at UTC-5 is already the 29th in UTC; the committer's day is the 28th, as the analyzer shows it.
    assert chunk_header(chunk("src/a.py", "2026-05-28T23:30:00-05:00").payload).endswith("(last modified 2026-05-28)")


def test_a_malformed_date_is_age_unknown() -> None:
    result = decisions_for(*CODE, chunk("src/x.py", "last tuesday"))
    assert result["src/x.py"] == (True, "code, age unknown (no demotion)", "// src/x.py:L3-L9")
