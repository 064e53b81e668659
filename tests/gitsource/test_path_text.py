"""The text form of git paths: plain paths unchanged, every other one escaped, exact both ways."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sextant.gitsource import path_bytes, path_text, text_path


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (b"src/app.py", "src/app.py"),
        ("ünï/日本.md".encode(), "ünï/日本.md"),
        (b"tabs/a\tb.md", "tabs/a\tb.md"),
        (b"new\nline.py", "new\\nline.py"),
        (b"caf\xe9.py", "caf\\xe9.py"),
        (b"back\\slash.py", "back\\\\slash.py"),
        (b"bell\x07.txt", "bell\\u0007.txt"),
        ("sep\u2028arator".encode(), "sep\\u2028arator"),
        (b"../..weird/..", "../..weird/.."),
    ],
)
def test_text_forms(raw: bytes, shown: str) -> None:
    assert path_text(raw) == shown
    assert path_bytes(shown) == raw
    shown.encode("utf-8")  # strict: never a surrogate
    assert "\n" not in shown


@given(st.binary(min_size=1, max_size=40).filter(lambda raw: b"\0" not in raw))
def test_any_bytes_round_trip_and_encode_as_json(raw: bytes) -> None:
    shown = path_text(raw)
    assert path_bytes(shown) == raw
    assert json.loads(json.dumps(shown, ensure_ascii=False)) == shown
    shown.encode("utf-8")


@given(st.binary(max_size=12), st.binary(max_size=12))
def test_two_different_paths_never_share_a_text_form(first: bytes, second: bytes) -> None:
    if first != second:
        assert path_text(first) != path_text(second)


def test_text_from_python_strings_matches_the_bytes_form() -> None:
    assert text_path("caf\udce9.py") == path_text(b"caf\xe9.py")
    assert text_path("plain/path.py") == "plain/path.py"
