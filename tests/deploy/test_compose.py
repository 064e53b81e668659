"""docker-compose.yml describes the distributed deployment; it must validate and wire every service."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ("recency-scanner", "indexer", "selector", "analyzer", "reviewer")


def load_compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data


@pytest.mark.skipif(shutil.which("docker-compose") is None, reason="Debian's docker-compose is not installed")
def test_compose_file_validates_with_docker_compose() -> None:
    subprocess.run(["docker-compose", "-f", str(ROOT / "docker-compose.yml"), "config", "-q"], check=True)


def test_infrastructure_has_jetstream_with_a_volume_qdrant_and_jaeger_with_otlp() -> None:
    services = load_compose()["services"]
    nats = services["nats"]
    assert "-js" in nats["command"]
    assert any(volume.startswith("nats-data:") for volume in nats["volumes"])
    assert services["qdrant"]["image"].startswith("qdrant/qdrant")
    assert services["jaeger"]["environment"]["COLLECTOR_OTLP_ENABLED"] == "true"


@pytest.mark.parametrize("name", SERVICES)
def test_each_service_runs_its_module_against_nats_qdrant_and_jaeger(name: str) -> None:
    service = load_compose()["services"][name]
    module = "sextant." + name.replace("-", "_")
    assert service["command"] == ["python", "-m", module]
    environment = service["environment"]
    assert environment["NATS_URL"] == "nats://nats:4222"
    assert environment["QDRANT_URL"] == "http://qdrant:6333"
    assert environment["OTEL_EXPORTER_OTLP_ENDPOINT"] == "http://jaeger:4318"
    assert environment["OTEL_SERVICE_NAME"] == name


def test_every_service_module_has_an_entry_point() -> None:
    for name in SERVICES:
        package = name.replace("-", "_")
        assert (ROOT / "services" / package / "src" / "sextant" / package / "__main__.py").is_file()
