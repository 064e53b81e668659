"""One run through the real bus is one trace, from the clone to the prompt, across all services."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from sextant.telemetry import ServiceTracing

from ..conftest import GitRepo
from .conftest import run_analysis

pytestmark = [pytest.mark.model, pytest.mark.usefixtures("uninstall_tracing")]

SERVICES = {"sextant-cli", "recency-scanner", "indexer", "selector", "analyzer"}
REQUIRED_SPANS = {
    "recency.clone_or_open",
    "recency.git_log",
    "indexer.discover",
    "indexer.fetch",
    "indexer.parse",
    "indexer.embed",
    "indexer.upsert",
    "selector.scroll",
    "selector.select",
    "analyzer.format_context",
    "analyzer.build_prompt",
}


def ancestors(span: ReadableSpan, by_id: dict[int, ReadableSpan]) -> Iterator[ReadableSpan]:
    while span.parent is not None and span.parent.span_id in by_id:
        span = by_id[span.parent.span_id]
        yield span


def service(span: ReadableSpan) -> str:
    return str(span.resource.attributes["service.name"])


def check_tree(spans: Iterable[ReadableSpan], run_id: str) -> None:
    [root] = [s for s in spans if s.name == "publish repo.updated" and s.attributes["sextant.run_id"] == run_id]
    trace_id = root.context.trace_id
    in_trace = [s for s in spans if s.context.trace_id == trace_id]
    by_id = {s.context.span_id: s for s in in_trace}
    names = {s.name for s in in_trace}
    assert names >= REQUIRED_SPANS, REQUIRED_SPANS - names
    assert {service(s) for s in in_trace} >= SERVICES
    assert root.parent is None
    for span in in_trace:  # every span hangs off the root: no orphans, no second trace
        assert span is root or list(ancestors(span, by_id))[-1] is root, span.name
    [prompt] = [s for s in in_trace if s.name == "analyzer.build_prompt"]
    path = [service(s) for s in ancestors(prompt, by_id)]
    for expected in ("analyzer", "selector", "indexer", "recency-scanner", "sextant-cli"):
        assert expected in path
    assert path.index("selector") < path.index("indexer") < path.index("recency-scanner")
    [clone] = [s for s in in_trace if s.name == "recency.clone_or_open"]
    assert service(clone) == "recency-scanner"
    for span in in_trace:
        for value in span.attributes.values():
            assert "place_order" not in str(value), f"{span.name} carries repository text"


async def test_in_memory_exporter_sees_one_trace_from_clone_to_prompt(small_repo: GitRepo, tmp_path: Path) -> None:
    exporter = InMemorySpanExporter()
    tracing = ServiceTracing({}, processors=[lambda: SimpleSpanProcessor(exporter)])
    request, analysis = await run_analysis(small_repo, tmp_path, tracing)
    assert analysis.run_id == request.run_id
    check_tree(exporter.get_finished_spans(), request.run_id)
