"""Local servers speaking GitHub's and GitLab's REST formats (the hosted APIs cannot run here), on real uvicorn."""

from __future__ import annotations

import asyncio
import itertools
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

GITHUB_TOKEN = "ghp_fake_token_never_logged"
GITLAB_TOKEN = "glpat-fake-token-never-logged"


@dataclass
class FakeHost:
    """What the fake host holds and what it was asked."""

    url: str = ""
    comments: dict[int, dict[str, Any]] = field(default_factory=dict)
    reviews: list[dict[str, Any]] = field(default_factory=list)
    discussions: list[dict[str, Any]] = field(default_factory=list)
    requests: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)
    diff_lines: set[tuple[str, int]] = field(default_factory=set)
    """Lines on the new side of the diff: comments elsewhere are refused, as the real hosts do."""
    commented: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when a summary comment is created or edited."""

    def record(self, request: Request) -> None:
        self.requests.append((request.method, request.scope["raw_path"].decode(), dict(request.headers)))

    def writes(self) -> list[tuple[str, str]]:
        return [(method, path) for method, path, _ in self.requests if method != "GET"]


_ids = itertools.count(1000)


def _page(items: list[dict[str, Any]], request: Request) -> list[dict[str, Any]]:
    per_page = int(request.query_params.get("per_page", "30"))
    page = int(request.query_params.get("page", "1"))
    return items[(page - 1) * per_page : page * per_page]


Endpoint = Callable[[Request], Awaitable[JSONResponse]]


def _signed_in(host: FakeHost, allowed: Callable[[Request], bool], refusal: str) -> Callable[[Endpoint], Endpoint]:
    """An endpoint of ``host`` that records each request and refuses, with the host's 401, one ``allowed`` rejects."""

    def wrap(endpoint: Endpoint) -> Endpoint:
        async def guarded(request: Request) -> JSONResponse:
            host.record(request)
            if not allowed(request):
                return JSONResponse({"message": refusal}, status_code=401)
            return await endpoint(request)

        return guarded

    return wrap


def github_app(host: FakeHost) -> Starlette:
    """Issue comments (list, create, edit) and pull request reviews (list, create), as api.github.com."""

    signed_in = _signed_in(
        host, lambda request: request.headers.get("authorization") == f"Bearer {GITHUB_TOKEN}", "Bad credentials"
    )

    async def comments(request: Request) -> JSONResponse:
        if request.method == "GET":
            return JSONResponse(_page(list(host.comments.values()), request))
        comment = {"id": next(_ids), "body": (await request.json())["body"], "user": {"login": "sextant[bot]"}}
        host.comments[comment["id"]] = comment
        host.commented.set()
        return JSONResponse(comment, status_code=201)

    async def comment(request: Request) -> JSONResponse:
        found = host.comments.get(int(request.path_params["id"]))
        if found is None:
            return JSONResponse({"message": "Not Found"}, status_code=404)
        found["body"] = (await request.json())["body"]
        return JSONResponse(found)

    async def reviews(request: Request) -> JSONResponse:
        if request.method == "GET":
            return JSONResponse(_page(host.reviews, request))
        review = await request.json()
        if any((c["path"], c["line"]) not in host.diff_lines for c in review.get("comments", [])):
            return JSONResponse({"message": "Unprocessable Entity", "errors": ["Line could not be resolved"]},
                                status_code=422)  # fmt: skip
        review = {"id": next(_ids), "state": "COMMENTED", **review}
        host.reviews.append(review)
        return JSONResponse(review)

    return Starlette(
        routes=[
            Route("/repos/{owner}/{name}/issues/{number:int}/comments", signed_in(comments), methods=["GET", "POST"]),
            Route("/repos/{owner}/{name}/issues/comments/{id:int}", signed_in(comment), methods=["PATCH"]),
            Route("/repos/{owner}/{name}/pulls/{number:int}/reviews", signed_in(reviews), methods=["GET", "POST"]),
        ]
    )


def gitlab_app(host: FakeHost) -> Starlette:
    """Merge request notes (list, create, edit), versions and discussions, as GitLab's /api/v4."""

    signed_in = _signed_in(
        host, lambda request: request.headers.get("private-token") == GITLAB_TOKEN, "401 Unauthorized"
    )

    async def notes(request: Request) -> JSONResponse:
        if request.method == "GET":
            return JSONResponse(_page(list(host.comments.values()), request))
        note = {"id": next(_ids), "body": (await request.json())["body"], "system": False}
        host.comments[note["id"]] = note
        return JSONResponse(note, status_code=201)

    async def note(request: Request) -> JSONResponse:
        found = host.comments[int(request.path_params["id"])]
        found["body"] = (await request.json())["body"]
        return JSONResponse(found)

    async def versions(request: Request) -> JSONResponse:
        host.record(request)
        return JSONResponse([{"id": 1, "head_commit_sha": "h" * 40, "base_commit_sha": "b" * 40,
                              "start_commit_sha": "s" * 40, "state": "collected"}])  # fmt: skip

    async def discussions(request: Request) -> JSONResponse:
        if request.method == "GET":
            return JSONResponse(_page(host.discussions, request))
        body = await request.json()
        position = body["position"]
        if (position["new_path"], position["new_line"]) not in host.diff_lines or position["head_sha"] != "h" * 40:
            return JSONResponse(
                {"message": '400 Bad request - Note {:line_code=>["can\'t be blank"]}'}, status_code=400
            )
        discussion = {"id": f"d{next(_ids)}", "notes": [{"id": next(_ids), "body": body["body"], "position": position}]}
        host.discussions.append(discussion)
        return JSONResponse(discussion, status_code=201)

    base = "/api/v4/projects/{project:path}/merge_requests/{iid:int}"
    return Starlette(
        routes=[
            Route(f"{base}/notes", signed_in(notes), methods=["GET", "POST"]),
            Route(f"{base}/notes/{{id:int}}", signed_in(note), methods=["PUT"]),
            Route(f"{base}/versions", versions, methods=["GET"]),
            Route(f"{base}/discussions", signed_in(discussions), methods=["GET", "POST"]),
        ]
    )


async def _serve(app_for: Callable[[FakeHost], Starlette]) -> AsyncIterator[FakeHost]:
    host = FakeHost()
    app = app_for(host)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, log_config=None, access_log=False))
    serving = asyncio.create_task(server.serve(sockets=[listener]))
    host.url = f"http://127.0.0.1:{port}"
    try:
        yield host
    finally:
        server.should_exit = True
        await serving
        listener.close()


@pytest.fixture
async def github() -> AsyncIterator[FakeHost]:
    async for host in _serve(github_app):
        yield host


@pytest.fixture
async def gitlab() -> AsyncIterator[FakeHost]:
    async for host in _serve(gitlab_app):
        yield host


Printer = Callable[[str], None]
