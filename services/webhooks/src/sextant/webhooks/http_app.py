"""The HTTP side: verify, cap, translate, publish — and answer the code host quickly and plainly."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Protocol

import msgspec
from starlette.applications import Starlette
from starlette.datastructures import Headers
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


@dataclass(frozen=True)
class _HookHost:
    """How one code host's deliveries are authenticated and read."""

    name: str
    """The host as answers and logs name it."""
    secret: Callable[[WebhookSettings], str | None]
    """The configured secret; None means this host's hooks are refused."""
    setting: str
    """The variable that configures the secret."""
    authentic: Callable[[str, bytes, Headers], bool]
    """(secret, raw body, headers) -> whether the delivery is really from the host."""
    credential: str
    """What proves it ("signature", "token"), and in which header."""
    credential_header: str
    event_header: str
    delivery_headers: tuple[str, ...]
    """Headers that carry the host's delivery id, the first one present wins (else the body's digest)."""
    translate: Callable[[str, str, bytes], HookEvent | Ignored]


GITHUB_HOOKS = _HookHost(
    name="GitHub",
    secret=lambda settings: settings.github_secret,
    setting="WEBHOOK_GITHUB_SECRET",
    authentic=lambda secret, body, headers: github_signature_valid(secret, body, headers.get("x-hub-signature-256")),
    credential="signature",
    credential_header="X-Hub-Signature-256",
    event_header="x-github-event",
    delivery_headers=("x-github-delivery",),
    translate=github_event,
)
GITLAB_HOOKS = _HookHost(
    name="GitLab",
    secret=lambda settings: settings.gitlab_token,
    setting="WEBHOOK_GITLAB_TOKEN",
    authentic=lambda secret, _body, headers: gitlab_token_valid(secret, headers.get("x-gitlab-token")),
    credential="token",
    credential_header="X-Gitlab-Token",
    event_header="x-gitlab-event",
    delivery_headers=("x-gitlab-event-uuid", "idempotency-key"),
    translate=gitlab_event,
)


async def _receive(request: Request, host: _HookHost, settings: WebhookSettings, publisher: Publisher) -> JSONResponse:
    secret = host.secret(settings)
    if secret is None:
        return _answer(403, "refused", reason=f"{host.name} hooks are not configured ({host.setting})")
    try:
        body = await read_capped(request, settings.max_body_bytes)
    except BodyTooLargeError:
        return _answer(413, "refused", reason=f"body over {settings.max_body_bytes} bytes")
    if not host.authentic(secret, body, request.headers):
        logger.warning("%s delivery refused: bad or missing %s", host.name, host.credential)
        return _answer(401, "refused", reason=f"bad or missing {host.credential_header}")
    event = request.headers.get(host.event_header, "")
    named = (request.headers.get(header) for header in host.delivery_headers)
    delivery = next((value for value in named if value), None) or stable_id("body", body)
    try:
        translated = host.translate(event, delivery, body)
    except (msgspec.DecodeError, msgspec.ValidationError, ValueError) as error:
        return _answer(400, "refused", reason=f"unexpected {event} payload: {error}")
    return await _publish(publisher, translated, host.name, delivery)


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

    def receiver(host: _HookHost) -> Callable[[Request], Awaitable[JSONResponse]]:
        async def receive(request: Request) -> JSONResponse:
            return await _receive(request, host, settings, publisher)

        return receive

    async def healthz(_request: Request) -> JSONResponse:
        return _answer(200, "ok")

    routes = [
        Route(GITHUB_PATH, receiver(GITHUB_HOOKS), methods=["POST"]),
        Route(GITLAB_PATH, receiver(GITLAB_HOOKS), methods=["POST"]),
        Route("/healthz", healthz, methods=["GET"]),
    ]
    return Starlette(routes=routes, lifespan=lifespan)
