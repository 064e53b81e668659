"""GitHub REST: one summary issue comment the bot owns (edited on each new review) and a review with line comments."""

from __future__ import annotations

import logging
from typing import Any

import httpx

from sextant.pr_bot.host_errors import check
from sextant.pr_bot.review_post import SUMMARY_MARKER, ReviewPost, line_marker

logger = logging.getLogger(__name__)

PAGE_SIZE = 100
MAX_PAGES = 20
"""At most 2,000 comments are searched for the bot's own; a busier thread gets a new summary comment."""


class GitHubPoster:
    """Posts to one GitHub (or GitHub Enterprise) API."""

    def __init__(self, client: httpx.AsyncClient, api: str, token: str) -> None:
        """Args:
        client: Shared HTTP client.
        api: API base, e.g. https://api.github.com.
        token: Token with pull request and issue write access (sent as a header only).
        """
        self._client = client
        self._api = api.rstrip("/")
        self._headers = {
            "Authorization": f"Bearer {token}",
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
        }

    async def _pages(self, path: str) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        for page in range(1, MAX_PAGES + 1):
            response = check(
                await self._client.get(
                    f"{self._api}{path}", params={"per_page": PAGE_SIZE, "page": page}, headers=self._headers
                ),
                f"GET {path}",
            )
            batch = response.json()
            items.extend(batch)
            if len(batch) < PAGE_SIZE:
                break
        return items

    async def post(self, slug: str, number: int, post: ReviewPost) -> str:
        """Create or edit the summary comment, then post the line comments once per review request.

        Args:
            slug: ``owner/name``.
            number: Pull request number.
            post: What to post.

        Returns:
            What was done, in words.
        """
        comments = await self._pages(f"/repos/{slug}/issues/{number}/comments")
        own = next((c for c in comments if SUMMARY_MARKER in (c.get("body") or "")), None)
        if own is None:
            check(
                await self._client.post(
                    f"{self._api}/repos/{slug}/issues/{number}/comments", json={"body": post.summary},
                    headers=self._headers,
                ),
                "create the summary comment",
            )  # fmt: skip
            done = "summary comment created"
        else:
            check(
                await self._client.patch(
                    f"{self._api}/repos/{slug}/issues/comments/{own['id']}", json={"body": post.summary},
                    headers=self._headers,
                ),
                "edit the summary comment",
            )  # fmt: skip
            done = "summary comment updated"
        return f"{done}; {await self._post_lines(slug, number, post)}"

    async def _post_lines(self, slug: str, number: int, post: ReviewPost) -> str:
        if not post.line_comments:
            return "no line findings"
        marker = line_marker(post.request_id)
        reviews = await self._pages(f"/repos/{slug}/pulls/{number}/reviews")
        if any(marker in (review.get("body") or "") for review in reviews):
            return "line comments already posted for this review"
        body = {
            "event": "COMMENT",
            "body": f"{marker}\nSextant: {len(post.line_comments)} finding(s) on changed lines.",
            "comments": [{"path": c.path, "line": c.line, "side": "RIGHT", "body": c.body} for c in post.line_comments],
        }
        response = await self._client.post(
            f"{self._api}/repos/{slug}/pulls/{number}/reviews", json=body, headers=self._headers
        )
        if response.status_code == 422:
            # GitHub refuses the whole review when a line is outside the diff; the summary still lists them.
            logger.info("GitHub refused line comments on %s#%d (lines outside the diff)", slug, number)
            return "line comments refused (outside the diff); they are in the summary"
        check(response, "post the line comments")
        return f"{len(post.line_comments)} line comment(s) posted"
