"""A pull request hook and `sextant review` of the same change get the same recency-aware review context."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from sextant.bus import Bus, EmbeddedNats, build_broker, start_routers
from sextant.cli.run_watch import await_result
from sextant.cli.services import all_services
from sextant.contracts import ChunksIndexed, ReviewCompleted, StageFailed
from sextant.publish import build_repo_updated

from ..search.conftest import AUTH, build_shop
from .conftest import GITHUB_SECRET
from .hook_payloads import body_of, github_pull_request, github_signature

TITLE = "Rename login_user to authenticate"
DESCRIPTION = "The old name is gone everywhere."


async def _result_of(bus: Bus, run_id: str) -> ReviewCompleted:
    async for _, event, _ in bus.read(follow=True):
        if event is not None and event.run_id == run_id:
            if isinstance(event, StageFailed):
                raise AssertionError(event.reason)
            if isinstance(event, ReviewCompleted):
                return event
    raise AssertionError("stream ended")


@pytest.mark.model
async def test_webhook_pr_flow_and_cli_flow_build_the_same_context(tmp_path: Path) -> None:
    import socket

    import httpx
    import uvicorn

    from sextant.webhooks.app import build_app
    from sextant.webhooks.config import WebhookSettings

    repo = build_shop(tmp_path / "shop")
    base_sha = repo.git("rev-parse", "main").strip()
    repo.git("checkout", "-q", "-b", "rename")
    repo.write("src/auth.py", AUTH.replace("login_user", "authenticate"))
    head_sha = repo.commit("rename login_user", date="2026-07-01T10:00:00+00:00")
    repo.git("checkout", "-q", "main")
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("NATS_", "QDRANT_", "OTEL_", "LLM_", "EMBEDDINGS_"))
    }
    env |= {"SEXTANT_HOME": str(tmp_path / "home"), "INDEX_FILE_RECENCY": "true"}

    with EmbeddedNats(tmp_path / "nats") as nats:
        bus = Bus(build_broker(nats.url))
        await start_routers(bus, all_services(env))
        indexed = await await_result(bus, build_repo_updated(str(repo.root)), ChunksIndexed, show_progress=False)
        assert indexed.files_added == 4

        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        settings = WebhookSettings(github_secret=GITHUB_SECRET)
        server = uvicorn.Server(uvicorn.Config(build_app(settings, nats.url), log_config=None, access_log=False))
        serving = asyncio.create_task(server.serve(sockets=[listener]))
        hook = github_pull_request(str(repo.root), base_sha=base_sha, head_sha=head_sha, title=TITLE, body=DESCRIPTION)
        body = body_of(hook)
        headers = {"X-GitHub-Event": "pull_request", "X-GitHub-Delivery": "pr-flow-1",
                   "X-Hub-Signature-256": github_signature(GITHUB_SECRET, body)}  # fmt: skip
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{listener.getsockname()[1]}", timeout=60) as http:
            accepted = (await http.post("/hooks/github", content=body, headers=headers)).json()
        server.should_exit = True
        await serving
        listener.close()
        from_hook = await asyncio.wait_for(_result_of(bus, accepted["run_id"]), timeout=600)

        cli = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "sextant.cli", "review", str(repo.root), "--base", "main", "--head", "rename",
             "--title", TITLE, "--description", DESCRIPTION, "--pr", "7", "--json"],
            env={**env, "NATS_URL": nats.url}, capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
        await bus.close()

    assert cli.returncode == 0, cli.stderr
    from_cli = json.loads(cli.stdout)
    assert from_hook.pr_number == from_cli["pr_number"] == 7
    assert from_hook.context, "the review retrieved context"
    assert msgspec.to_builtins(from_hook.context) == from_cli["context"]
    assert from_hook.prompt == from_cli["prompt"]
    design = [item for item in from_hook.context if item.path == "docs/design.md"]
    assert all("stale doc" in item.reason for item in design)
