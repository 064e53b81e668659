"""The store-free services, each its own process on a 3-node R3 cluster: webhooks in front, the PR bot last.

- Two webhook processes (``python -m sextant.webhooks``). Signed GitHub push hooks go to either;
  midway one NATS node and one webhook process are killed with SIGKILL, and every hook the dead one
  received is delivered again to the other (as GitHub redelivers). Each delivery is stored once.
- Two PR bot processes (``python -m sextant.pr_bot``) share the durable consumer of ReviewCompleted
  and post to a local server speaking GitHub's REST format (the hosted API cannot run here). Every
  pull request ends with exactly one summary comment, also for the reviews published after the kill.

The recency scanner, the third store-free service, has its own test (test_services_on_cluster.py).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import socket
from collections import Counter, defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from sextant.bus import Bus, EmbeddedNats
from sextant.contracts import RepoRef, RepoUpdated, ReviewCompleted, event_id_for, subject_pattern, utc_now_iso
from sextant.pr_bot.review_post import SUMMARY_MARKER

from ..webhooks.hook_payloads import body_of, github_push, github_signature
from .cluster_bus import DEADLINE_SECONDS, connect_when_ready, publish_until_stored, read_events
from .conftest import free_ports
from .processes import ServiceProcess, service_env, start_service

pytestmark = [pytest.mark.cluster, pytest.mark.timeout(600)]

HOOKS = 12
KILL_AFTER = 6
PULL_REQUESTS = 8
SECRET = "cluster-hook-secret"
TOKEN = "ghp_cluster_token_never_logged"
SHOP = "https://github.com/octo/shop.git"


@dataclass
class GitHubComments:
    """Issue comments per pull request, as api.github.com keeps them."""

    url: str = ""
    comments: dict[int, dict[int, str]] = field(default_factory=lambda: defaultdict(dict))
    """pull request number -> comment id -> body."""


def github_app(github: GitHubComments) -> Starlette:
    ids = itertools.count(1)
    owner_of: dict[int, int] = {}

    def refused(request: Request) -> JSONResponse | None:
        if request.headers.get("authorization") != f"Bearer {TOKEN}":
            return JSONResponse({"message": "Bad credentials"}, status_code=401)
        return None

    async def comments(request: Request) -> JSONResponse:
        number = int(request.path_params["number"])
        if (answer := refused(request)) is not None:
            return answer
        if request.method == "GET":
            page = int(request.query_params.get("page", "1"))
            listed = [
                {"id": i, "body": b, "user": {"login": "sextant[bot]"}} for i, b in github.comments[number].items()
            ]
            return JSONResponse(listed if page == 1 else [])
        comment_id = next(ids)
        github.comments[number][comment_id] = (await request.json())["body"]
        owner_of[comment_id] = number
        return JSONResponse({"id": comment_id, "body": github.comments[number][comment_id]}, status_code=201)

    async def comment(request: Request) -> JSONResponse:
        if (answer := refused(request)) is not None:
            return answer
        comment_id = int(request.path_params["id"])
        github.comments[owner_of[comment_id]][comment_id] = (await request.json())["body"]
        return JSONResponse({"id": comment_id})

    async def reviews(request: Request) -> JSONResponse:
        if (answer := refused(request)) is not None:
            return answer
        return JSONResponse([] if request.method == "GET" else {"id": next(ids), "state": "COMMENTED"})

    return Starlette(
        routes=[
            Route("/repos/{owner}/{name}/issues/{number:int}/comments", comments, methods=["GET", "POST"]),
            Route("/repos/{owner}/{name}/issues/comments/{id:int}", comment, methods=["PATCH"]),
            Route("/repos/{owner}/{name}/pulls/{number:int}/reviews", reviews, methods=["GET", "POST"]),
        ]
    )


@pytest.fixture
async def github() -> AsyncIterator[GitHubComments]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    state = GitHubComments(url=f"http://127.0.0.1:{listener.getsockname()[1]}")
    server = uvicorn.Server(uvicorn.Config(github_app(state), log_config=None, access_log=False))
    serving = asyncio.create_task(server.serve(sockets=[listener]))
    try:
        yield state
    finally:
        server.should_exit = True
        await serving
        listener.close()


async def post_until_accepted(http: httpx.AsyncClient, url: str, number: int) -> str:
    """Deliver one push hook as GitHub does: again on a 5xx or a refused connection, same delivery id."""
    body = body_of(github_push(SHOP, after=f"{number + 1:040x}"))  # never the all-zero (deleted) sha
    headers = {"X-GitHub-Event": "push", "X-GitHub-Delivery": f"delivery-{number}",
               "Content-Type": "application/json", "X-Hub-Signature-256": github_signature(SECRET, body)}  # fmt: skip
    deadline = asyncio.get_running_loop().time() + DEADLINE_SECONDS
    while True:
        try:
            response = await http.post(f"{url}/hooks/github", content=body, headers=headers)
            if response.status_code < 500:
                assert response.status_code == 202, response.text
                outcome: str = response.json()["outcome"]
                return outcome
        except httpx.TransportError:
            pass
        assert asyncio.get_running_loop().time() < deadline, f"hook {number} never accepted"
        await asyncio.sleep(0.5)


def start_webhooks(url: str, home: Path, port: int) -> tuple[ServiceProcess, str]:
    env = service_env(url, home, WEBHOOK_GITHUB_SECRET=SECRET, WEBHOOK_PORT=str(port))
    return start_service("sextant.webhooks", env, home.name, ready="Uvicorn running on"), f"http://127.0.0.1:{port}"


def review(number: int) -> ReviewCompleted:
    run_id = f"review-{number}"
    return ReviewCompleted(
        event_id=event_id_for(ReviewCompleted, run_id, "request"), run_id=run_id, occurred_at=utc_now_iso(),
        repo=RepoRef.for_url(SHOP, provider="github"), request_id="request", pr_number=number,
        markdown=f"## Review\n\nPull request {number}, from the cluster.",
    )  # fmt: skip


async def wait_for_comments(github: GitHubComments, numbers: range, bots: list[ServiceProcess]) -> None:
    deadline = asyncio.get_running_loop().time() + DEADLINE_SECONDS
    while not all(github.comments[number] for number in numbers):
        logs = "".join(f"{bot.name}: {line}" for bot in bots for line in bot.lines[-10:])
        commented = sorted(n for n, found in github.comments.items() if found)
        assert asyncio.get_running_loop().time() < deadline, f"commented on {commented} only:\n{logs}"
        await asyncio.sleep(0.5)


async def repo_updated_deliveries(client: Bus) -> Counter[str]:
    events = await read_events(client, subject_pattern(RepoUpdated, "*"))
    return Counter(e.head_sha or "" for e in events if isinstance(e, RepoUpdated))


async def test_webhooks_and_pr_bots_as_their_own_processes_survive_a_killed_node_and_process(
    cluster: list[EmbeddedNats], tmp_path: Path, github: GitHubComments
) -> None:
    url = ",".join(node.url for node in cluster)
    client = await connect_when_ready(url)
    ports = free_ports(2)
    webhooks = [start_webhooks(url, tmp_path / f"webhooks-{n}", ports[n]) for n in range(2)]
    bot_env = {"PR_BOT_GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": github.url}
    bots = [
        start_service("sextant.pr_bot", service_env(url, tmp_path / f"bot-{n}", **bot_env), f"bot-{n}")
        for n in range(2)
    ]
    outcomes: list[str] = []
    try:
        async with httpx.AsyncClient(timeout=30) as http:
            for number in range(KILL_AFTER):  # alternately to each webhook process
                outcomes.append(await post_until_accepted(http, webhooks[number % 2][1], number))  # noqa: PERF401
            for number in range(1, PULL_REQUESTS // 2 + 1):
                await publish_until_stored(client, review(number))
            await wait_for_comments(github, range(1, 2), bots)

            victim = cluster[1].pid
            assert victim is not None
            os.kill(victim, signal.SIGKILL)
            webhooks[0][0].kill()
            # What the dead process had received is delivered again, then the rest: all to the survivor.
            for number in [*range(0, KILL_AFTER, 2), *range(KILL_AFTER, HOOKS)]:
                outcomes.append(await post_until_accepted(http, webhooks[1][1], number))  # noqa: PERF401
            for number in range(PULL_REQUESTS // 2 + 1, PULL_REQUESTS + 1):
                await publish_until_stored(client, review(number))
            await wait_for_comments(github, range(1, PULL_REQUESTS + 1), bots)
        deliveries = await repo_updated_deliveries(client)
    finally:
        for process in [*(w for w, _ in webhooks), *bots]:
            process.kill()
        await client.close()

    assert sorted(deliveries) == sorted(f"{n + 1:040x}" for n in range(HOOKS)), "a hook was lost"
    assert set(deliveries.values()) == {1}, "a redelivered hook was stored twice"
    # A hook answered 503 while its event was in fact stored (the ack was lost with the node) is
    # "duplicate" on its next delivery; either way the stream holds it once (checked above).
    assert set(outcomes) <= {"published", "duplicate"}
    assert outcomes.count("published") <= HOOKS
    for number in range(1, PULL_REQUESTS + 1):
        assert len(github.comments[number]) == 1, f"PR {number} has {len(github.comments[number])} comments"
        [body] = github.comments[number].values()
        assert body.startswith(SUMMARY_MARKER)
        assert f"Pull request {number}, from the cluster." in body
