"""One day rule for every output: the day a date names in the offset it was written with."""

from __future__ import annotations

from dataclasses import dataclass

import msgspec
import pytest

from sextant.doc_rules import calendar_day, file_date, payload_date


@pytest.mark.parametrize(
    ("value", "day"),
    [
        ("2026-05-28", "2026-05-28"),
        ("2026-05-28T23:30:00-05:00", "2026-05-28"),  # already the 29th in UTC
        ("2026-05-29T00:30:00+02:00", "2026-05-29"),  # still the 28th in UTC
        ("2026-05-28T10:00:00Z", "2026-05-28"),
        ("20260528T233000-0500", "2026-05-28"),
        (" 2026-05-28T10:00:00+00:00 ", "2026-05-28"),
        ("last tuesday", None),
        ("", None),
        (None, None),
        (msgspec.UNSET, None),
    ],
)
def test_calendar_day(value: object, day: str | None) -> None:
    assert calendar_day(value) == day


@dataclass
class Chunk:
    last_modified_at: object
    symbol_last_modified_at: object = None


def test_a_payload_date_prefers_the_symbols_own_date() -> None:
    assert payload_date(Chunk("2026-01-01", "2026-03-01")) == "2026-03-01"
    assert file_date(Chunk("2026-01-01", "2026-03-01")) == "2026-01-01"


def test_a_payload_date_falls_back_to_the_file_and_treats_bad_values_as_unknown() -> None:
    assert payload_date(Chunk("2026-01-01")) == "2026-01-01"
    assert payload_date(Chunk("2026-01-01", "garbage")) == "2026-01-01"
    assert payload_date(Chunk(msgspec.UNSET)) is None
    assert payload_date(Chunk("soon")) is None
