"""The webhook service over real HTTP: signed deliveries in each host's shape, bad signatures, replays, limits."""

from __future__ import annotations

import logging

import pytest

from sextant.contracts import RepoRef, RepoUpdated, ReviewRequested

from .conftest import GITHUB_SECRET, GITLAB_TOKEN, MAX_BODY, WebhookServer
from .hook_payloads import (
    body_of,
    github_pull_request,
    github_push,
    github_signature,
    gitlab_merge_request,
    gitlab_push,
)

CLONE_URL = "https://github.com/octo/shop.git"
GITLAB_URL = "https://gitlab.example/group/shop.git"


async def _github(server: WebhookServer, event: str, body: bytes, delivery: str, signature: str | None = None):  # type: ignore[no-untyped-def]
    signed = signature if signature is not None else github_signature(GITHUB_SECRET, body)
    headers = {"X-GitHub-Event": event, "X-GitHub-Delivery": delivery, "Content-Type": "application/json",
               "X-Hub-Signature-256": signed}  # fmt: skip
    return await server.http.post("/hooks/github", content=body, headers=headers)


async def _gitlab(server: WebhookServer, event: str, body: bytes, delivery: str, token: str = GITLAB_TOKEN):  # type: ignore[no-untyped-def]
    headers = {"X-Gitlab-Event": event, "X-Gitlab-Event-UUID": delivery, "X-Gitlab-Token": token,
               "Content-Type": "application/json"}  # fmt: skip
    return await server.http.post("/hooks/gitlab", content=body, headers=headers)


async def test_healthz(webhook_server: WebhookServer) -> None:
    response = await webhook_server.http.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"outcome": "ok"}


async def test_github_push_becomes_repo_updated_with_every_commits_paths(webhook_server: WebhookServer) -> None:
    response = await _github(webhook_server, "push", body_of(github_push(CLONE_URL)), "delivery-push-1")

    assert response.status_code == 202
    assert response.json()["outcome"] == "published"
    [event] = await webhook_server.events()
    assert isinstance(event, RepoUpdated)
    assert event.repo == RepoRef.for_url(CLONE_URL, provider="github")
    assert event.head_sha == "b" * 40
    assert event.head_commit_date == "2026-06-01T12:30:00+02:00"
    assert event.changed_paths == ["README.md", "billing/render.py", "src/app.py", "src/legacy.py"]
    assert event.removed_paths == ["old/notes.md"]
    assert response.json()["event_id"] == event.event_id


async def test_a_redelivered_hook_is_stored_once(webhook_server: WebhookServer) -> None:
    body = body_of(github_push(CLONE_URL))
    first = await _github(webhook_server, "push", body, "delivery-same")
    again = await _github(webhook_server, "push", body, "delivery-same")
    other = await _github(webhook_server, "push", body, "delivery-other")

    assert [r.json()["outcome"] for r in (first, again, other)] == ["published", "duplicate", "published"]
    assert len(await webhook_server.events()) == 2


async def test_bad_missing_or_foreign_signatures_are_refused(webhook_server: WebhookServer) -> None:
    body = body_of(github_push(CLONE_URL))
    tampered = body.replace(b"billing", b"b1lling")
    responses = [
        await _github(webhook_server, "push", body, "d1", signature=""),
        await _github(webhook_server, "push", body, "d2", signature="sha256=" + "0" * 64),
        await _github(webhook_server, "push", tampered, "d3", signature=github_signature(GITHUB_SECRET, body)),
        await _github(webhook_server, "push", body, "d4", signature=github_signature("another-secret", body)),
        await _github(webhook_server, "push", body, "d5", signature="sha1=" + "0" * 40),
        await _gitlab(webhook_server, "Push Hook", body_of(gitlab_push(GITLAB_URL)), "g1", token="wrong"),
    ]

    assert [r.status_code for r in responses] == [401] * 6
    assert await webhook_server.events() == []


async def test_oversized_bodies_are_refused_declared_or_streamed(webhook_server: WebhookServer) -> None:
    huge = b"{" + b" " * MAX_BODY + b"}"
    declared = await _github(webhook_server, "push", huge, "big-1")

    async def chunks():  # type: ignore[no-untyped-def]  # no Content-Length: the cap must hold on the stream
        for _ in range(MAX_BODY // 1024 + 2):
            yield b" " * 1024

    streamed = await webhook_server.http.post(
        "/hooks/gitlab", content=chunks(), headers={"X-Gitlab-Event": "Push Hook", "X-Gitlab-Token": GITLAB_TOKEN}
    )

    assert declared.status_code == 413
    assert streamed.status_code == 413
    assert await webhook_server.events() == []


async def test_pull_request_opened_and_synchronized_request_reviews_others_are_ignored(
    webhook_server: WebhookServer,
) -> None:
    opened = await _github(webhook_server, "pull_request", body_of(github_pull_request(CLONE_URL)), "pr-1")
    pushed = await _github(
        webhook_server, "pull_request",
        body_of(github_pull_request(CLONE_URL, action="synchronize", head_sha="c" * 40)), "pr-2",
    )  # fmt: skip
    labeled = await _github(
        webhook_server, "pull_request", body_of(github_pull_request(CLONE_URL, action="labeled")), "pr-3"
    )
    draft = await _github(webhook_server, "pull_request", body_of(github_pull_request(CLONE_URL, draft=True)), "pr-4")
    ping = await _github(webhook_server, "ping", b'{"zen": "Keep it logically awesome."}', "ping-1")
    branch = await _github(webhook_server, "push", body_of(github_push(CLONE_URL, ref="refs/heads/feature")), "p-2")
    tag = await _github(webhook_server, "push", body_of(github_push(CLONE_URL, ref="refs/tags/v1")), "p-3")

    assert [r.json()["outcome"] for r in (opened, pushed)] == ["published", "published"]
    assert [r.status_code for r in (labeled, draft, ping, branch, tag)] == [202] * 5
    assert {r.json()["outcome"] for r in (labeled, draft, ping, branch, tag)} == {"ignored"}
    first, second = await webhook_server.events()
    assert isinstance(first, ReviewRequested)
    assert isinstance(second, ReviewRequested)
    assert (first.pr_number, first.title, first.description) == (7, "Rename login_user", "Renames it everywhere.")
    assert (first.base_ref, first.head_ref) == ("a" * 40, "b" * 40)
    assert second.head_ref == "c" * 40
    assert first.repo.provider == "github"


async def test_gitlab_push_and_merge_requests(webhook_server: WebhookServer) -> None:
    push = await _gitlab(webhook_server, "Push Hook", body_of(gitlab_push(GITLAB_URL)), "gl-push")
    partial = await _gitlab(webhook_server, "Push Hook", body_of(gitlab_push(GITLAB_URL, total=45)), "gl-push-big")
    opened = await _gitlab(webhook_server, "Merge Request Hook", body_of(gitlab_merge_request(GITLAB_URL)), "gl-mr")
    new_commits = await _gitlab(
        webhook_server, "Merge Request Hook",
        body_of(gitlab_merge_request(GITLAB_URL, action="update", oldrev="d" * 40, last_commit="f" * 40)), "gl-mr-2",
    )  # fmt: skip
    edited = await _gitlab(
        webhook_server, "Merge Request Hook", body_of(gitlab_merge_request(GITLAB_URL, action="update")), "gl-mr-3"
    )
    note = await _gitlab(webhook_server, "Note Hook", b'{"object_kind": "note"}', "gl-note")

    assert [r.json()["outcome"] for r in (push, partial, opened, new_commits)] == ["published"] * 4
    assert [r.json()["outcome"] for r in (edited, note)] == ["ignored", "ignored"]
    full, truncated, review, update = await webhook_server.events()
    assert isinstance(full, RepoUpdated)
    assert full.changed_paths == ["billing/render.py", "src/app.py"]
    assert full.removed_paths == ["docs/old.md"]
    assert full.head_commit_date == "2026-05-02T09:00:00+00:00"
    assert full.repo.provider == "gitlab"
    assert isinstance(truncated, RepoUpdated)
    assert truncated.changed_paths is None, "45 commits, 2 listed: the paths are unknown, so index in full"
    assert isinstance(review, ReviewRequested)
    assert (review.pr_number, review.base_ref, review.head_ref) == (3, "main", "e" * 40)
    assert isinstance(update, ReviewRequested)
    assert update.head_ref == "f" * 40


async def test_malformed_bodies_are_a_400_not_a_crash(webhook_server: WebhookServer) -> None:
    not_json = await _github(webhook_server, "push", b"not json", "bad-1")
    wrong_shape = await _github(webhook_server, "push", b'{"ref": 5}', "bad-2")

    assert [r.status_code for r in (not_json, wrong_shape)] == [400, 400]
    assert (await webhook_server.http.get("/healthz")).status_code == 200


@pytest.mark.parametrize("secret", [GITHUB_SECRET, GITLAB_TOKEN])
async def test_secrets_never_reach_the_logs(
    webhook_server: WebhookServer, caplog: pytest.LogCaptureFixture, secret: str
) -> None:
    caplog.set_level(logging.DEBUG)
    body = body_of(github_push(CLONE_URL))
    await _github(webhook_server, "push", body, "log-1")
    await _github(webhook_server, "push", body, "log-2", signature="sha256=" + "1" * 64)
    await _gitlab(webhook_server, "Push Hook", body_of(gitlab_push(GITLAB_URL)), "log-3")
    await _gitlab(webhook_server, "Push Hook", body_of(gitlab_push(GITLAB_URL)), "log-4", token=secret + "x")

    assert "delivery log-1" in caplog.text
    assert secret not in caplog.text


async def test_unconfigured_providers_are_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import httpx

    from sextant.webhooks.config import WebhookSettings
    from sextant.webhooks.http_app import create_app

    class NoBus:
        async def publish(self, event: object) -> bool:
            raise AssertionError("nothing may be published")

    app = create_app(WebhookSettings(), NoBus())  # type: ignore[arg-type]
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://hooks") as client:
        github = await client.post("/hooks/github", content=b"{}", headers={"X-Hub-Signature-256": "sha256=00"})
        gitlab = await client.post("/hooks/gitlab", content=b"{}", headers={"X-Gitlab-Token": ""})
    assert [github.status_code, gitlab.status_code] == [403, 403]
