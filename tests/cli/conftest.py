"""Run the real `sextant` command in a subprocess, with its own SEXTANT_HOME."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

SextantRunner = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def sextant_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NATS_", "QDRANT_", "OTEL_", "LLM_"))}
    env.pop("ANTHROPIC_API_KEY", None)
    env.pop("OPENAI_API_KEY", None)
    env["SEXTANT_HOME"] = str(tmp_path / "home")
    env["INDEX_FILE_RECENCY"] = "true"
    return env


@pytest.fixture
def sextant(sextant_env: dict[str, str]) -> SextantRunner:
    def run(*args: str, check: bool = True, timeout: float = 180, **env: str) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [sys.executable, "-m", "sextant.cli", *args],
            check=False,
            env={**sextant_env, **env},
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if check and result.returncode != 0:
            raise AssertionError(f"sextant {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
        return result

    return run
