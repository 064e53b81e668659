"""Pure parts of search: ages in words, snippets, whole-token matching, stale-doc framing."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec

from sextant.chunkstore import ChunkPayload
from sextant.search import AGE_UNKNOWN, age_words
from sextant.search.snippets import has_token, snippet_for
from sextant.search.trust import retrieved_code_median, trust_note

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _payload(path: str, kind: str, date: str | None) -> ChunkPayload:
    fields = {"repo_key": "r", "path": path, "blob_sha": "a", "kind": kind, "language": "x", "start_line": 1,
              "end_line": 2, "text": "", "indexed_at": "2026-01-01T00:00:00Z", "last_modified_at": date}  # fmt: skip
    return msgspec.convert(fields, ChunkPayload)


def test_age_words() -> None:
    assert age_words("2026-11-30T20:00:00Z", NOW) == "today"
    assert age_words("2026-11-20", NOW) == "11 days ago"
    assert age_words("2026-06-01", NOW) == "6 months ago"
    assert age_words("2024-03-01", NOW) == "2 years ago"
    assert age_words(None, NOW) == AGE_UNKNOWN
    assert age_words("not a date", NOW) == AGE_UNKNOWN


def test_snippet_picks_the_lines_with_most_query_words() -> None:
    text = "import os\n\n\ndef a():\n    pass\n\ndef check_password(p):\n    return hash(p) == STORED\n"

    assert snippet_for(text, "password hash", lines=2) == "def check_password(p):\n    return hash(p) == STORED"
    assert snippet_for("", "x") == ""
    assert len(snippet_for("x" * 500, "x").splitlines()[0]) == 160


def test_whole_token_matching() -> None:
    assert has_token("login_user('a')", "login_user")
    assert not has_token("login_user_count = 1", "login_user")
    assert not has_token("my_login_user()", "login_user")
    assert has_token("x = my_login_user + login_user", "login_user")


def test_a_doc_is_stale_only_against_dated_code_and_a_code_hit_has_no_note() -> None:
    code = [_payload("a.py", "code", "2026-06-01"), _payload("b.py", "code", "2026-05-01")]
    old_doc = _payload("d.md", "doc", "2024-01-01")
    fresh_doc = _payload("e.md", "doc", "2026-04-01")
    median = retrieved_code_median([*code, old_doc, fresh_doc])

    stale, note = trust_note(old_doc, median, "(documentation — verify against code)")
    assert stale
    assert note.startswith("(documentation — verify against code) stale: ")
    assert trust_note(fresh_doc, median, "NOTE") == (False, "NOTE")
    assert trust_note(code[0], median, "NOTE") == (False, "")
    assert trust_note(_payload("u.md", "doc", None), median, "NOTE") == (False, "NOTE")
    assert trust_note(old_doc, None, "NOTE") == (False, "NOTE")
