"""docker-compose.yml describes the distributed deployment; it must validate and wire every service."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tomllib
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml

from sextant.bootstrap import declared_services
from sextant.bus import find_nats_server

ROOT = Path(__file__).resolve().parents[2]
BUS_SERVICES = ("recency-scanner", "indexer", "selector", "analyzer", "reviewer", "pr-bot")
STORE_SERVICES = ("recency-scanner", "indexer", "embedder", "selector", "analyzer", "reviewer")
INFRASTRUCTURE = ("nats", "qdrant", "jaeger")


def load_compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data


@pytest.mark.skipif(shutil.which("docker-compose") is None, reason="Debian's docker-compose is not installed")
def test_compose_file_validates_with_docker_compose(tmp_path: Path) -> None:
    # Validated as an operator would run it: beside a .env made from the template (git ignores .env).
    shutil.copy(ROOT / "docker-compose.yml", tmp_path / "docker-compose.yml")
    shutil.copy(ROOT / ".env.example", tmp_path / ".env")
    shutil.copytree(ROOT / "deploy", tmp_path / "deploy")
    subprocess.run(["docker-compose", "-f", str(tmp_path / "docker-compose.yml"), "config", "-q"], check=True)


def test_infrastructure_has_jetstream_with_a_volume_qdrant_and_jaeger_with_otlp() -> None:
    services = load_compose()["services"]
    nats = services["nats"]
    assert nats["command"] == ["-c", "/etc/nats/nats-server.conf"]
    assert any(volume.startswith("nats-data:") for volume in nats["volumes"])
    assert any(volume.startswith("./deploy/nats/nats-server.conf:") for volume in nats["volumes"])
    assert services["qdrant"]["image"].startswith("qdrant/qdrant")
    assert services["jaeger"]["environment"]["COLLECTOR_OTLP_ENABLED"] == "true"
    for name in ("nats", "qdrant"):
        assert services[name]["healthcheck"]["test"]
        assert services[name]["restart"] == "unless-stopped"


@pytest.mark.parametrize("name", [*BUS_SERVICES, "embedder"])
def test_each_service_runs_its_module_after_healthy_infrastructure(name: str) -> None:
    service = load_compose()["services"][name]
    module = "sextant." + name.replace("-", "_")
    assert service["command"] in (["python", "-m", module], ["python", "-m", "sextant.bootstrap", name])
    environment = service["environment"]
    assert environment["NATS_URL"] == "nats://nats:4222"
    assert environment["OTEL_EXPORTER_OTLP_ENDPOINT"] == "http://jaeger:4318"
    assert environment["OTEL_SERVICE_NAME"] == name
    assert service["env_file"] == [".env"]
    assert service["restart"] == "unless-stopped"
    assert service["depends_on"]["nats"]["condition"] == "service_healthy"
    assert service["depends_on"]["qdrant"]["condition"] == "service_healthy"
    assert service["healthcheck"]["test"]
    if name in STORE_SERVICES:
        assert environment["QDRANT_URL"] == "http://qdrant:6333"


def test_every_declared_service_has_a_container() -> None:
    containers = set(load_compose()["services"])
    declared = {declaration.name.replace("_", "-") for declaration in declared_services()}
    assert declared <= containers
    assert "webhooks" in containers


def test_every_service_module_has_an_entry_point() -> None:
    for name in (*BUS_SERVICES, "webhooks"):
        package = name.replace("-", "_")
        assert (ROOT / "services" / package / "src" / "sextant" / package / "__main__.py").is_file()


def test_env_file_is_ignored_by_git_and_the_template_is_not() -> None:
    ignored = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", ".env"], check=False)
    template = subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", ".env.example"], check=False)
    assert ignored.returncode == 0
    assert template.returncode == 1


def test_qdrant_image_is_inside_the_clients_compatibility_window() -> None:
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    [client] = [package["version"] for package in lock["package"] if package["name"] == "qdrant-client"]
    image = load_compose()["services"]["qdrant"]["image"]
    match = re.fullmatch(r"qdrant/qdrant:v(\d+)\.(\d+)\.\d+", image)
    assert match, image
    client_major, client_minor = (int(part) for part in client.split(".")[:2])
    # qdrant-client accepts a server of the same major version within one minor version.
    assert int(match.group(1)) == client_major
    assert abs(int(match.group(2)) - client_minor) <= 1


@pytest.mark.bus
def test_the_nats_config_fsyncs_every_write(tmp_path: Path) -> None:
    config = (ROOT / "deploy" / "nats" / "nats-server.conf").read_text()
    assert "sync_interval: always" in config
    local = tmp_path / "nats-server.conf"
    local.write_text(config.replace("store_dir: /data/jetstream", f"store_dir: {tmp_path / 'js'}"))
    ports = tmp_path / "ports"
    ports.mkdir()
    # Port -1 for both listeners: the server picks free ones and writes them to its ports file.
    server = subprocess.Popen(
        [str(find_nats_server()), "-c", str(local), "-a", "127.0.0.1", "-p", "-1", "-m", "-1",
         "--ports_file_dir", str(ports), "-l", str(tmp_path / "nats.log")],
    )  # fmt: skip
    try:
        monitor = ""
        while not monitor:  # the ports file appears within milliseconds; a dead server ends the loop
            assert server.poll() is None, (tmp_path / "nats.log").read_text()
            for found in ports.glob("*.ports"):
                try:
                    monitor = str(json.loads(found.read_text())["monitoring"][0])
                except (ValueError, KeyError):
                    continue
        assert monitor.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(f"{monitor}/varz", timeout=30) as answer:  # noqa: S310 — loopback http, checked above
            varz: dict[str, Any] = json.load(answer)
    finally:
        server.terminate()
        server.wait()
    assert varz["jetstream"]["config"]["sync_always"] is True
