"""The staleness rule shared by the analyzer (§2) and the reviewer (§3)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sextant.doc_rules import (
    STALE_DOC_GAP,
    CalendarMonths,
    age_phrase,
    is_stale_doc,
    median_date,
    months_older,
    parse_iso_date,
)


def test_gap_is_six_calendar_months() -> None:
    assert STALE_DOC_GAP.count == 6


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2026-05-28", datetime(2026, 5, 28, tzinfo=UTC)),
        ("2026-05-28T10:00:00Z", datetime(2026, 5, 28, 10, tzinfo=UTC)),
        ("2026-05-28T10:00:00+02:00", datetime(2026, 5, 28, 8, tzinfo=UTC)),
        ("2026-05-28T01:00:00-05:00", datetime(2026, 5, 28, 6, tzinfo=UTC)),
        ("2026-05-28T10:00:00", datetime(2026, 5, 28, 10, tzinfo=UTC)),
        (" 2026-05-28 ", datetime(2026, 5, 28, tzinfo=UTC)),
    ],
)
def test_parse_iso_date_reads_dates_and_offsets_as_utc(value: str, expected: datetime) -> None:
    parsed = parse_iso_date(value)
    assert parsed == expected
    assert parsed is not None
    assert parsed.utcoffset() == timedelta(0)


@pytest.mark.parametrize("value", [None, "", "yesterday", "2026-13-01", "28/05/2026"])
def test_parse_iso_date_unknown_or_malformed_is_none(value: str | None) -> None:
    assert parse_iso_date(value) is None


def test_month_shift_clamps_to_end_of_shorter_month() -> None:
    assert STALE_DOC_GAP.before(datetime(2026, 8, 31, 9, tzinfo=UTC)) == datetime(2026, 2, 28, 9, tzinfo=UTC)
    assert STALE_DOC_GAP.before(datetime(2028, 8, 31, tzinfo=UTC)) == datetime(2028, 2, 29, tzinfo=UTC)
    assert STALE_DOC_GAP.before(datetime(2026, 3, 15, tzinfo=UTC)) == datetime(2025, 9, 15, tzinfo=UTC)


def test_exactly_six_months_is_not_stale_one_second_more_is() -> None:
    median = "2026-07-15T12:00:00Z"
    assert not is_stale_doc("2026-01-15T12:00:00Z", median)
    assert is_stale_doc("2026-01-15T11:59:59Z", median)
    assert months_older("2026-01-15T12:00:00Z", median) == 6


def test_boundary_is_judged_on_the_utc_instant() -> None:
    median = "2026-07-15T12:00:00+00:00"
    # 14:00 at +02:00 is 12:00 UTC: exactly on the boundary, not stale.
    assert not is_stale_doc("2026-01-15T14:00:00+02:00", median)
    # 13:00 at +02:00 is 11:00 UTC: an hour past the boundary.
    assert is_stale_doc("2026-01-15T13:00:00+02:00", median)
    # 08:00 at -05:00 is 13:00 UTC: inside the gap.
    assert not is_stale_doc("2026-01-15T08:00:00-05:00", median)


def test_date_only_strings_are_midnight_utc() -> None:
    assert not is_stale_doc("2026-01-15", "2026-07-15")
    assert is_stale_doc("2026-01-14", "2026-07-15")
    assert is_stale_doc("2026-01-15", "2026-07-15T00:00:01Z")


def test_missing_or_malformed_dates_are_never_stale() -> None:
    assert not is_stale_doc(None, "2026-07-15")
    assert not is_stale_doc("2020-01-01", None)
    assert not is_stale_doc(None, None)
    assert not is_stale_doc("long ago", "2026-07-15")
    assert months_older(None, "2026-07-15") == 0
    assert age_phrase("2020-01-01", None) is None


def test_newer_doc_is_not_older() -> None:
    assert months_older("2026-09-01", "2026-07-15") == 0
    assert not is_stale_doc("2026-09-01", "2026-07-15")


@pytest.mark.parametrize(
    ("doc", "median", "months"),
    [
        ("2024-08-12", "2025-10-12", 14),
        ("2024-08-12", "2025-10-11", 13),
        ("2024-08-12T10:00:00Z", "2025-10-12T09:59:59Z", 13),
        ("2026-01-31", "2026-02-28", 0),
        ("2025-12-31", "2026-06-30", 5),
        ("2025-12-31", "2026-07-31", 7),
    ],
)
def test_months_older_counts_whole_calendar_months(doc: str, median: str, months: int) -> None:
    assert months_older(doc, median) == months


def test_age_phrase_only_for_stale_docs() -> None:
    assert age_phrase("2024-08-12", "2025-10-12") == "14 months older than typical code in this repo"
    assert age_phrase("2026-03-01", "2026-07-15") is None
    assert age_phrase(None, "2026-07-15") is None


def test_median_date_over_files_picks_the_lower_median_string() -> None:
    assert median_date([]) is None
    assert median_date([None, "bogus"]) is None
    assert median_date(["2026-03-01"]) == "2026-03-01"
    # Sorted by instant, not by text: 00:30+02:00 on the 2nd is 22:30Z on the 1st, before 23:00Z.
    dates = ["2026-03-01T23:00:00Z", "2026-03-02T00:30:00+02:00", None, "2026-01-01"]
    assert median_date(dates) == "2026-03-02T00:30:00+02:00"
    assert median_date(["2026-01-01", "2026-02-01", "2026-03-01", "2026-04-01"]) == "2026-02-01"


_instants = st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)).map(
    lambda moment: moment.replace(microsecond=0)
)


@given(doc=_instants, median=_instants)
def test_stale_iff_at_least_six_months_and_past_the_boundary(doc: datetime, median: datetime) -> None:
    doc_s, median_s = doc.isoformat(), median.isoformat()
    months = months_older(doc_s, median_s)
    stale = is_stale_doc(doc_s, median_s)
    if stale:
        assert months >= 6
        assert age_phrase(doc_s, median_s) == f"{months} months older than typical code in this repo"
    if months >= 7:
        assert stale
    assert CalendarMonths(months).before(median) >= doc or months == 0
    assert CalendarMonths(months + 1).before(median) < doc


@given(st.lists(st.one_of(st.none(), _instants.map(datetime.isoformat)), max_size=30))
def test_median_is_order_free_and_one_of_the_inputs(dates: list[str | None]) -> None:
    result = median_date(dates)
    assert result == median_date(list(reversed(dates)))
    known = [d for d in dates if d is not None]
    assert (result is None) == (not known)
    if result is not None:
        assert result in known
