"""When a doc is stale: more than STALE_DOC_GAP older than the repository's median code-file date.

One definition, shared by the analyzer's age notes and the reviewer's stale-doc demotion
(docs/analysis.md). The gap is absolute, not relative to the repository's age, because relative thresholds
misfire on young repositories (with a two-week median, a month-old doc would be flagged).

Dates are the ISO 8601 strings git and the payloads carry ("2026-05-28T10:00:00+02:00", "...Z",
or a bare "2026-05-28"). Every comparison happens on the UTC instant; a date without a time is
midnight UTC and a time without an offset is UTC. A missing or malformed date means "age unknown":
never stale, no phrase, left out of medians.
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime


@dataclass(frozen=True)
class CalendarMonths:
    """A span of whole calendar months, so "6 months" means what a reader of the age note expects."""

    count: int

    def before(self, moment: datetime) -> datetime:
        """The same wall-clock instant `count` months earlier, clamped to the end of a shorter month.

        Args:
            moment: An aware datetime; the shift is done on its UTC value.

        Returns:
            The shifted aware datetime in UTC (e.g. 6 months before 2026-08-31 is 2026-02-28).
        """
        utc = moment.astimezone(UTC)
        months = utc.year * 12 + (utc.month - 1) - self.count
        year, month = divmod(months, 12)
        day = min(utc.day, calendar.monthrange(year, month + 1)[1])
        return utc.replace(year=year, month=month + 1, day=day)


STALE_DOC_GAP = CalendarMonths(6)
"""A doc is stale when it is more than six calendar months older than the median code-file date.

Calendar months rather than a fixed 183 days so that every stale doc's note reads "6 months older"
or more: six consecutive months last 181 to 184 days, and a day count would sometimes say "5".
Exactly six months older is not stale; one second more is.
"""


def parse_iso_date(value: str | None) -> datetime | None:
    """Read an ISO 8601 date or date-time as an aware UTC datetime.

    Args:
        value: "2026-05-28", "2026-05-28T10:00:00Z", "2026-05-28T10:00:00+02:00", ... or None.

    Returns:
        The instant in UTC; None when the value is missing, empty or not ISO 8601 (age unknown,
        because a bad date in an index must never fail an analysis or a review).
    """
    if not value:
        return None
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def is_stale_doc(doc_date: str | None, median_code: str | None) -> bool:
    """Whether a doc is more than STALE_DOC_GAP older than the median code-file date.

    Args:
        doc_date: The doc file's last commit date (ISO 8601), or None when unknown.
        median_code: The repository's median code-file date (ISO 8601), or None when unknown.

    Returns:
        True only when both dates are known and the doc predates the median by more than the gap.
    """
    doc = parse_iso_date(doc_date)
    median = parse_iso_date(median_code)
    if doc is None or median is None:
        return False
    return doc < STALE_DOC_GAP.before(median)


def months_older(doc_date: str | None, median_code: str | None) -> int:
    """How many whole calendar months the doc predates the median code-file date.

    Args:
        doc_date: The doc file's last commit date (ISO 8601), or None when unknown.
        median_code: The repository's median code-file date (ISO 8601), or None when unknown.

    Returns:
        The largest n with doc_date at or before median_code shifted back n months; 0 when the doc
        is not older or either date is unknown.
    """
    doc = parse_iso_date(doc_date)
    median = parse_iso_date(median_code)
    if doc is None or median is None or doc >= median:
        return 0
    months = (median.year - doc.year) * 12 + (median.month - doc.month)
    # The month-number difference overshoots by at most one when the day or time has not come round.
    while months > 0 and CalendarMonths(months).before(median) < doc:
        months -= 1
    return months


def age_phrase(doc_date: str | None, median_code: str | None) -> str | None:
    """The relative age note for a stale doc, as the analyzer prints it.

    Args:
        doc_date: The doc file's last commit date (ISO 8601), or None when unknown.
        median_code: The repository's median code-file date (ISO 8601), or None when unknown.

    Returns:
        "14 months older than typical code in this repo" for a stale doc; None when the doc is not
        stale or either date is unknown (the note appears only for stale docs).
    """
    if not is_stale_doc(doc_date, median_code):
        return None
    months = months_older(doc_date, median_code)
    unit = "month" if months == 1 else "months"
    return f"{months} {unit} older than typical code in this repo"


def median_date(dates: Iterable[str | None]) -> str | None:
    """The median of file dates, one date per file (not per chunk, so big files do not weigh more).

    Args:
        dates: One ISO 8601 date per file; None or malformed entries are left out.

    Returns:
        The lower median as the original string (an even count picks the older of the two middle
        dates, never an average, so the reference point is a real commit date and staleness errs
        towards "not stale"); None when no date is known.
    """
    known = sorted((parsed, value) for value in dates if value and (parsed := parse_iso_date(value)) is not None)
    if not known:
        return None
    return known[(len(known) - 1) // 2][1]
