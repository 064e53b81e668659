"""The HTTP side: verify, cap, translate, publish — and answer the code host quickly and plainly."""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Protocol

import msgspec
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from sextant.contracts import Event, stable_id
from sextant.webhooks.config import WebhookSettings
from sextant.webhooks.github_hooks import github_event
from sextant.webhooks.gitlab_hooks import gitlab_event
from sextant.webhooks.hook_result import HookEvent, Ignored
from sextant.webhooks.signatures import github_signature_valid, gitlab_token_valid

logger = logging.getLogger(__name__)

GITHUB_PATH = "/hooks/github"
GITLAB_PATH = "/hooks/gitlab"


class Publisher(Protocol):
    """Where accepted hooks go (the bus)."""

    async def publish(self, event: Event) -> bool:
        """Publish once; False when the event id was already stored (a redelivery)."""
        ...


class BodyTooLargeError(Exception):
    """The body passed the configured cap."""


async def read_capped(request: Request, limit: int) -> bytes:
    """The request body, refusing it as soon as it passes ``limit`` bytes (never buffered whole).

    Args:
        request: The request.
        limit: Largest accepted body.

    Returns:
        The body.

    Raises:
        BodyTooLargeError: when the declared or the actual length passes the limit.
    """
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise BodyTooLargeError
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise BodyTooLargeError
    return bytes(body)


def _answer(status: int, outcome: str, **details: object) -> JSONResponse:
    return JSONResponse({"outcome": outcome, **details}, status_code=status)


async def _publish(publisher: Publisher, translated: HookEvent | Ignored, provider: str, delivery: str) -> JSONResponse:
    if isinstance(translated, Ignored):
        logger.info("%s delivery %s ignored: %s", provider, delivery, translated.reason)
        return _answer(202, "ignored", reason=translated.reason)
    try:
        fresh = await publisher.publish(translated)
    except Exception:  # the bus is down: the host retries a 5xx later, with the same delivery id
        logger.exception("%s delivery %s could not be published", provider, delivery)
        return _answer(503, "unavailable", reason="the event bus did not accept the event; retry later")
    kind = type(translated).__name__
    logger.info("%s delivery %s -> %s %s", provider, delivery, kind, "published" if fresh else "duplicate")
    return _answer(202, "published" if fresh else "duplicate", event=kind, event_id=translated.event_id,
                   run_id=translated.run_id)  # fmt: skip


def create_app(
    settings: WebhookSettings,
    publisher: Publisher,
    lifespan: Callable[[Starlette], AbstractAsyncContextManager[None]] | None = None,
) -> Starlette:
    """The webhook application.

    Args:
        settings: Secrets and limits.
        publisher: Where translated events go.
        lifespan: Connects and closes the publisher around the server's life (``python -m``).

    Returns:
        A Starlette app with ``POST /hooks/github``, ``POST /hooks/gitlab`` and ``GET /healthz``.
    """

    async def github(request: Request) -> JSONResponse:
        if settings.github_secret is None:
            return _answer(403, "refused", reason="GitHub hooks are not configured (WEBHOOK_GITHUB_SECRET)")
        try:
            body = await read_capped(request, settings.max_body_bytes)
        except BodyTooLargeError:
            return _answer(413, "refused", reason=f"body over {settings.max_body_bytes} bytes")
        if not github_signature_valid(settings.github_secret, body, request.headers.get("x-hub-signature-256")):
            logger.warning("GitHub delivery refused: bad or missing signature")
            return _answer(401, "refused", reason="bad or missing X-Hub-Signature-256")
        event = request.headers.get("x-github-event", "")
        delivery = request.headers.get("x-github-delivery") or stable_id("body", body)
        try:
            translated = github_event(event, delivery, body)
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as error:
            return _answer(400, "refused", reason=f"unexpected {event} payload: {error}")
        return await _publish(publisher, translated, "GitHub", delivery)

    async def gitlab(request: Request) -> JSONResponse:
        if settings.gitlab_token is None:
            return _answer(403, "refused", reason="GitLab hooks are not configured (WEBHOOK_GITLAB_TOKEN)")
        try:
            body = await read_capped(request, settings.max_body_bytes)
        except BodyTooLargeError:
            return _answer(413, "refused", reason=f"body over {settings.max_body_bytes} bytes")
        if not gitlab_token_valid(settings.gitlab_token, request.headers.get("x-gitlab-token")):
            logger.warning("GitLab delivery refused: bad or missing token")
            return _answer(401, "refused", reason="bad or missing X-Gitlab-Token")
        event = request.headers.get("x-gitlab-event", "")
        delivery = (
            request.headers.get("x-gitlab-event-uuid")
            or request.headers.get("idempotency-key")
            or stable_id("body", body)
        )
        try:
            translated = gitlab_event(event, delivery, body)
        except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as error:
            return _answer(400, "refused", reason=f"unexpected {event} payload: {error}")
        return await _publish(publisher, translated, "GitLab", delivery)

    async def healthz(_request: Request) -> JSONResponse:
        return _answer(200, "ok")

    routes = [
        Route(GITHUB_PATH, github, methods=["POST"]),
        Route(GITLAB_PATH, gitlab, methods=["POST"]),
        Route("/healthz", healthz, methods=["GET"]),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
