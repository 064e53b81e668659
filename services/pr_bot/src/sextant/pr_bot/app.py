"""Wiring only: the PR bot consumes ReviewCompleted and posts to the code host (it publishes nothing)."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

import httpx

from sextant.bootstrap import Adapters, HandlerFactory, ServiceDeclaration
from sextant.contracts import Event, ReviewCompleted
from sextant.pr_bot.config import PrBotSettings
from sextant.pr_bot.handlers import STAGE, PrBotDeps, on_review_completed

SERVICE_NAME = "pr_bot"
DURABLE = "pr_bot"
HTTP_TIMEOUT_SECONDS = 30.0


def _print(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def build_handler(adapters: Adapters, env: Mapping[str, str]) -> HandlerFactory[ReviewCompleted]:
    """The PR bot's handler.

    Args:
        adapters: Shared adapters (the bot needs none of them: its tokens are write tokens of its own).
        env: Environment the settings are read from (PR_BOT_*, GITHUB_TOKEN, GITLAB_TOKEN, *_API_URL).

    Returns:
        ``bus -> handler``.
    """
    del adapters
    settings = PrBotSettings.from_env(env)

    async def handle(event: ReviewCompleted) -> Sequence[Event]:
        # A client per review: reviews are rare, and nothing is left open when the service stops.
        async with httpx.AsyncClient(timeout=HTTP_TIMEOUT_SECONDS, follow_redirects=False) as client:
            return await on_review_completed(event, PrBotDeps(settings=settings, client=client, show=_print))

    return lambda bus: handle


SERVICE: ServiceDeclaration[ReviewCompleted] = ServiceDeclaration(
    name=SERVICE_NAME,
    stage=STAGE,
    durable=DURABLE,
    consumes=ReviewCompleted,
    produces=(),
    build=build_handler,
    summary="Posts each review to its GitHub pull request or GitLab merge request, editing its own comment.",
    embedded=False,
)
