"""The standard OpenTelemetry variables choose what leaves the process and under which name."""

from __future__ import annotations

import subprocess
import sys
from concurrent import futures
from typing import Any

import grpc
import pytest
from opentelemetry.proto.collector.trace.v1 import trace_service_pb2, trace_service_pb2_grpc

from sextant.config import ConfigError
from sextant.telemetry import ServiceTracing
from sextant.telemetry.exporters import chosen_exporters, otlp_protocol


def test_unset_exports_nothing_and_an_endpoint_means_otlp() -> None:
    assert chosen_exporters({}) == []
    assert chosen_exporters({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}) == ["otlp"]
    assert chosen_exporters({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_TRACES_EXPORTER": "none"}) == []
    assert chosen_exporters({"OTEL_TRACES_EXPORTER": "console, otlp"}) == ["console", "otlp"]
    assert chosen_exporters({"OTEL_TRACES_EXPORTER": ""}) == []  # empty counts as unset
    assert not ServiceTracing({"OTEL_TRACES_EXPORTER": "none"}).exporting


def test_unknown_exporters_and_protocols_are_named() -> None:
    with pytest.raises(ConfigError, match="OTEL_TRACES_EXPORTER"):
        chosen_exporters({"OTEL_TRACES_EXPORTER": "zipkin"})
    with pytest.raises(ConfigError, match="OTEL_EXPORTER_OTLP_PROTOCOL"):
        otlp_protocol({"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"})
    assert otlp_protocol({"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc", "OTEL_EXPORTER_OTLP_PROTOCOL": "x"}) == "grpc"


def test_otel_service_name_names_the_process_spans() -> None:
    tracing = ServiceTracing({"OTEL_SERVICE_NAME": "ci-publisher"})
    assert tracing.default_service == "ci-publisher"
    provider = tracing.provider("sextant-cli")  # the bus's default name stands for the process
    assert provider.resource.attributes["service.name"] == "ci-publisher"
    assert tracing.provider("indexer").resource.attributes["service.name"] == "indexer"
    tracing.shutdown()


@pytest.mark.process
def test_console_exporter_writes_spans() -> None:
    # In a child process: the SDK's console exporter binds the stdout it found at import time.
    script = (
        "from sextant.telemetry import ServiceTracing\n"
        "tracing = ServiceTracing({'OTEL_TRACES_EXPORTER': 'console'})\n"
        "with tracing.tracer_for('indexer', 'test').start_as_current_span('discover files'):\n"
        "    pass\n"
        "tracing.shutdown()\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert '"name": "discover files"' in done.stdout


class _Collector(trace_service_pb2_grpc.TraceServiceServicer):  # type: ignore[misc]
    def __init__(self) -> None:
        self.names: list[str] = []

    def Export(self, request: Any, context: Any) -> Any:  # noqa: N802 — the gRPC method's name
        for resource_spans in request.resource_spans:
            for scope_spans in resource_spans.scope_spans:
                self.names.extend(span.name for span in scope_spans.spans)
        return trace_service_pb2.ExportTraceServiceResponse()


def test_grpc_protocol_exports_to_a_grpc_collector() -> None:
    collector = _Collector()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    trace_service_pb2_grpc.add_TraceServiceServicer_to_server(collector, server)
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        env = {"OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{port}", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}
        tracing = ServiceTracing(env)
        with tracing.tracer_for("reviewer", __name__).start_as_current_span("rerank"):
            pass
        tracing.force_flush()
        tracing.shutdown()
    finally:
        server.stop(grace=None)
    assert collector.names == ["rerank"]
