"""The webhooks service and the PR bot are deployable alone: their modules exist and compose runs them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def test_compose_runs_both_services_against_nats() -> None:
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]

    assert services["webhooks"]["command"] == ["python", "-m", "sextant.webhooks"]
    assert services["webhooks"]["environment"]["WEBHOOK_HOST"] == "0.0.0.0"  # noqa: S104 — inside its container
    assert services["pr-bot"]["command"] == ["python", "-m", "sextant.pr_bot"]
    for name in ("webhooks", "pr-bot"):
        assert services[name]["environment"]["NATS_URL"] == "nats://nats:4222"


@pytest.mark.process
def test_each_refuses_to_start_without_a_bus() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NATS_")}
    for module in ("sextant.webhooks", "sextant.pr_bot"):
        result = subprocess.run(
            [sys.executable, "-m", module], env=env, capture_output=True, text=True, timeout=120, check=False
        )
        assert result.returncode != 0
        assert "NATS_URL" in result.stderr
