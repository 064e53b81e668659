"""GitHub REST: one summary issue comment the bot owns (edited on each new review) and a review with line comments."""

from __future__ import annotations

import logging

import httpx

from sextant.pr_bot.host_api import HostApi
from sextant.pr_bot.host_errors import check
from sextant.pr_bot.review_post import ReviewPost, line_marker

logger = logging.getLogger(__name__)


class GitHubPoster:
    """Posts to one GitHub (or GitHub Enterprise) API."""

    def __init__(self, client: httpx.AsyncClient, api: str, token: str) -> None:
        """Args:
        client: Shared HTTP client.
        api: API base, e.g. https://api.github.com.
        token: Token with pull request and issue write access (sent as a header only).
        """
        headers = {
            "Authorization": f"Bearer {token}",
            "Accept": "application/vnd.github+json",
            "X-GitHub-Api-Version": "2022-11-28",
        }
        self._host = HostApi(client, api, headers)

    async def post(self, slug: str, number: int, post: ReviewPost) -> str:
        """Create or edit the summary comment, then post the line comments once per review request.

        Args:
            slug: ``owner/name``.
            number: Pull request number.
            post: What to post.

        Returns:
            What was done, in words.
        """
        comments = f"/repos/{slug}/issues/{number}/comments"
        one_comment = f"/repos/{slug}/issues/comments/"
        done = await self._host.upsert_summary(comments, one_comment, "PATCH", post.summary, "comment")
        return f"{done}; {await self._post_lines(slug, number, post)}"

    async def _post_lines(self, slug: str, number: int, post: ReviewPost) -> str:
        if not post.line_comments:
            return "no line findings"
        marker = line_marker(post.request_id)
        reviews_path = f"/repos/{slug}/pulls/{number}/reviews"
        reviews = await self._host.pages(reviews_path)
        if any(marker in (review.get("body") or "") for review in reviews):
            return "line comments already posted for this review"
        body = {
            "event": "COMMENT",
            "body": f"{marker}\nSextant: {len(post.line_comments)} finding(s) on changed lines.",
            "comments": [{"path": c.path, "line": c.line, "side": "RIGHT", "body": c.body} for c in post.line_comments],
        }
        response = await self._host.request("POST", reviews_path, json=body)
        if response.status_code == 422:
            # GitHub refuses the whole review when a line is outside the diff; the summary still lists them.
            logger.info("GitHub refused line comments on %s#%d (lines outside the diff)", slug, number)
            return "line comments refused (outside the diff); they are in the summary"
        check(response, "post the line comments")
        return f"{len(post.line_comments)} line comment(s) posted"
