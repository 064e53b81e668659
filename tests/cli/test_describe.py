"""`describe.summarize`: every event the contracts declare has its own readable line.

`sextant events`, the stage lines of `analyze`/`index` and the MCP server's run log all print
`summarize(event)`. The list of event types is read from the contracts, so an event added there
without a line here fails this test (and mypy: `summarize` ends in `assert_never`).
"""

from __future__ import annotations

import typing
from typing import Any

import msgspec
import pytest

from sextant.cli.describe import summarize
from sextant.contracts import (
    EVENT_TYPES,
    AnalysisCompleted,
    AnyEvent,
    ChunksIndexed,
    ChunksSelected,
    DocClaimsRejudged,
    HistoryHydrated,
    Provenance,
    RepoRef,
    SkippedFiles,
    event_name,
)
from sextant.contracts.events import Event

REPO = RepoRef.for_url("https://example.com/acme/shop.git")


def _sample(info: msgspec.inspect.Type) -> Any:  # noqa: PLR0911 — one short case per kind of field
    """A valid value of a field's type: the smallest one that decodes."""
    match info:
        case msgspec.inspect.StrType():
            return "x"
        case msgspec.inspect.IntType():
            return 1
        case msgspec.inspect.FloatType():
            return 1.0
        case msgspec.inspect.BoolType():
            return True
        case msgspec.inspect.LiteralType():
            return info.values[0]
        case msgspec.inspect.ListType():
            return []
        case msgspec.inspect.DictType():
            return {}
        case msgspec.inspect.UnionType():
            return _sample(next(t for t in info.types if not isinstance(t, msgspec.inspect.NoneType)))
        case msgspec.inspect.StructType():
            return {f.encode_name: _sample(f.type) for f in info.fields if f.required}
    raise AssertionError(f"no sample value for {info!r}: teach _sample this kind of field")


def minimal(event_type: type[Event]) -> AnyEvent:
    """The event with only its required fields set (its envelope included), every other at its default."""
    info = msgspec.inspect.type_info(event_type)
    assert isinstance(info, msgspec.inspect.StructType)
    fields = {f.encode_name: _sample(f.type) for f in info.fields if f.required}
    fields["repo"] = msgspec.to_builtins(REPO)
    event: AnyEvent = msgspec.convert(fields, event_type)  # type: ignore[assignment]  # each is in AnyEvent
    return event


def test_the_contracts_list_every_event_of_the_union_once() -> None:
    assert set(typing.get_args(AnyEvent)) == set(EVENT_TYPES)
    assert len(EVENT_TYPES) == len(set(EVENT_TYPES))


@pytest.mark.parametrize("event_type", EVENT_TYPES, ids=event_name)
def test_every_event_type_has_its_own_line(event_type: type[Event]) -> None:
    line = summarize(minimal(event_type))
    assert line.strip()
    assert line != event_name(event_type)  # the name alone says nothing the column beside it does not


def test_the_end_of_a_history_fetch_says_its_outcome_and_why_it_stopped_short() -> None:
    event = msgspec.structs.replace(
        minimal(HistoryHydrated),  # type: ignore[arg-type]
        outcome="incomplete",
        missing=1200,
        fetched=800,
        bytes_fetched=3 * 1024 * 1024,
        seconds=12.34,
        note="the 64 MiB budget stopped the fetch",
    )
    assert summarize(event) == (
        "history incomplete: 800 of 1200 past blobs fetched, 3.0 MiB, 12.3s (the 64 MiB budget stopped the fetch)"
    )


def test_a_revision_says_each_count_before_and_after_and_which_analysis() -> None:
    base = minimal(DocClaimsRejudged)
    assert isinstance(base, DocClaimsRejudged)
    before = {"verified": 30, "contradicted": 1, "outdated": 0, "unverifiable": 6}
    after = {"verified": 30, "contradicted": 4, "outdated": 1, "unverifiable": 2}
    revised = msgspec.structs.replace(
        base, revised=True, analysis_event_id="0123456789abcdef", claims_before=before, claims_after=after
    )
    assert summarize(revised) == (
        "revised analysis 0123456789ab: 1 -> 4 contradicted, 0 -> 1 outdated, 6 -> 2 unverifiable"
    )
    unchanged = msgspec.structs.replace(
        base, claims_before=before, claims_after=before, reason="the doc-claim findings are unchanged"
    )
    assert summarize(unchanged) == "not revised: the doc-claim findings are unchanged"


def test_a_revised_analysis_names_the_one_it_replaces_and_a_fetch_that_follows_is_said() -> None:
    first = minimal(AnalysisCompleted)
    assert isinstance(first, AnalysisCompleted)
    revised = msgspec.structs.replace(first, provenance=Provenance(revision_of="fedcba9876543210"))
    assert "revises fedcba987654 (doc claims judged again with history)" in summarize(revised)
    assert "revises" not in summarize(first)

    indexed = minimal(ChunksIndexed)
    assert isinstance(indexed, ChunksIndexed)
    assert summarize(msgspec.structs.replace(indexed, history_fetch_follows=True)).endswith("; history fetch follows")
    assert "history" not in summarize(indexed)


def test_counts_read_as_words_and_a_median_as_its_day() -> None:
    indexed = minimal(ChunksIndexed)
    assert isinstance(indexed, ChunksIndexed)
    assert "; 1 embedding call;" in summarize(msgspec.structs.replace(indexed, embedding_calls=1))
    assert "; 3 embedding calls;" in summarize(msgspec.structs.replace(indexed, embedding_calls=3))
    assert "embedding call" not in summarize(indexed)  # dense vectors follow in ChunksEmbedded: no call to count
    selected = minimal(ChunksSelected)
    assert isinstance(selected, ChunksSelected)
    dated = msgspec.structs.replace(selected, median_code="2025-04-03T04:25:26+00:00")
    assert summarize(dated).endswith(", median 2025-04-03")
    assert summarize(selected).endswith(", median unknown")


def test_an_index_line_names_only_the_counts_that_are_not_zero() -> None:
    indexed = minimal(ChunksIndexed)
    assert isinstance(indexed, ChunksIndexed)
    first = msgspec.structs.replace(
        indexed,
        files_seen=163,
        files_added=159,
        files_unchanged=4,
        skipped=[SkippedFiles(reason="binary", count=2)],
        chunks_upserted=3182,
        recency_status="computed",
        duration_seconds=2.84,
    )
    line = summarize(first)
    assert line == "163 files: 159 added, 4 unchanged (skipped: 2 binary); 3182 chunks written; recency computed; 2.8s"
    assert len(f"  {'chunks.indexed':<19} {line}") <= 120  # was 230 characters for the same run
    again = msgspec.structs.replace(indexed, files_seen=3, files_changed=1, files_restamped=2, chunks_deleted=4)
    assert summarize(again).startswith("3 files: 1 changed, 2 re-dated; 0 chunks written, 4 removed;")
    assert summarize(msgspec.structs.replace(indexed, files_seen=0)).startswith("0 files: nothing to index;")
