"""Post one review to its pull or merge request (or, in a dry run, print what would be posted)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from sextant.contracts import Event, ReviewCompleted
from sextant.pr_bot.config import GITLAB_API_PATH, PrBotSettings
from sextant.pr_bot.github_poster import GitHubPoster
from sextant.pr_bot.gitlab_poster import GitLabPoster
from sextant.pr_bot.host_errors import HostRefusedError
from sextant.pr_bot.repo_address import RepoAddress, repo_address
from sextant.pr_bot.review_post import ReviewPost, describe_post, review_post

STAGE = "pr_bot"
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PrBotDeps:
    """Settings, one HTTP client, and where a dry run prints."""

    settings: PrBotSettings
    client: httpx.AsyncClient
    show: Callable[[str], None]


async def on_review_completed(event: ReviewCompleted, deps: PrBotDeps) -> list[Event]:
    """Post a finished review where the change is discussed.

    Reviews without a pull request number (a local `sextant review`), on other hosts, or without a token
    are skipped with a log line. A host that refuses for good (bad token, no access) is logged and
    skipped; a host that may recover (rate limit, 5xx, network) raises, so the bus retries with backoff.

    Args:
        event: The review.
        deps: Settings, client, dry-run output.

    Returns:
        Nothing to publish: the comment is the effect.
    """
    address = repo_address(event.repo.url)
    provider = event.repo.provider
    if event.pr_number is None or address is None or provider not in ("github", "gitlab"):
        logger.info("review %s has no hosted pull request to post to; skipped", event.event_id)
        return []
    where = f"{provider} {address.path}#{event.pr_number}"
    post = review_post(event)
    if deps.settings.dry_run:
        deps.show(describe_post(post, where))
        return []
    try:
        done = await _post(provider, address, event.pr_number, post, deps)
    except HostRefusedError as refusal:
        logger.warning("could not post the review to %s: %s", where, refusal)
        return []
    if done is None:
        logger.warning("no %s token configured (PR_BOT_%s_TOKEN): review for %s not posted", provider,
                       provider.upper(), where)  # fmt: skip
        return []
    logger.info("review posted to %s: %s", where, done)
    return []


async def _post(provider: str, address: RepoAddress, number: int, post: ReviewPost, deps: PrBotDeps) -> str | None:
    settings = deps.settings
    if provider == "github":
        if settings.github_token is None:
            return None
        return await GitHubPoster(deps.client, settings.github_api, settings.github_token).post(
            address.path, number, post
        )
    if settings.gitlab_token is None:
        return None
    api = settings.gitlab_api or f"{address.scheme}://{address.host}{GITLAB_API_PATH}"
    return await GitLabPoster(deps.client, api, settings.gitlab_token).post(address.path, number, post)
