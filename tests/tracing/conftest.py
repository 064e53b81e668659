"""A small repository and a helper that runs the whole chain once through a real bus."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.cli.run_watch import await_result
from sextant.cli.services import all_services
from sextant.contracts import AnalysisCompleted, RepoUpdated
from sextant.publish import build_repo_updated
from sextant.telemetry import ServiceTracing, install

from ..conftest import GitRepo


@pytest.fixture
def small_repo(git_repo: GitRepo) -> GitRepo:
    orders = 'def place_order(item: str) -> str:\n    """Place an order."""\n    return item\n'
    files = {"README.md": "# Shop\n\nStart with `place_order()`.\n", "shop/orders.py": orders}
    git_repo.commit_files("first", files, date="2026-03-01T10:00:00+00:00")
    return git_repo


@pytest.fixture
def uninstall_tracing() -> Iterator[None]:
    yield
    install(None)


async def run_analysis(repo: GitRepo, tmp_path: Path, tracing: ServiceTracing) -> tuple[RepoUpdated, AnalysisCompleted]:
    """One `sextant analyze` worth of work, in-process, with ``tracing`` installed."""
    install(tracing)
    env = {"SEXTANT_HOME": str(tmp_path / "home"), "INDEX_FILE_RECENCY": "true"}
    with EmbeddedNats(tmp_path / "nats") as server:
        bus = Bus(build_broker(server.url))
        await start_routers(bus, all_services(env))
        request = build_repo_updated(repo.url)
        analysis = await await_result(bus, request, AnalysisCompleted, show_progress=False)
        await bus.close()
    tracing.force_flush()
    return request, analysis
