"""GitLab REST: one summary note the bot owns (edited on each new review) and a diff discussion per line finding."""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import quote

import httpx

from sextant.pr_bot.host_errors import check
from sextant.pr_bot.review_post import SUMMARY_MARKER, ReviewPost, line_marker

logger = logging.getLogger(__name__)

PAGE_SIZE = 100
MAX_PAGES = 20


class GitLabPoster:
    """Posts to one GitLab API."""

    def __init__(self, client: httpx.AsyncClient, api: str, token: str) -> None:
        """Args:
        client: Shared HTTP client.
        api: API base, e.g. https://gitlab.com/api/v4.
        token: Token with the api scope (sent as the PRIVATE-TOKEN header only).
        """
        self._client = client
        self._api = api.rstrip("/")
        self._headers = {"PRIVATE-TOKEN": token}

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

    async def post(self, project_path: str, iid: int, post: ReviewPost) -> str:
        """Create or edit the summary note, then open one diff discussion per line finding (once per request).

        Args:
            project_path: ``group/name`` (URL-encoded here).
            iid: Merge request iid.
            post: What to post.

        Returns:
            What was done, in words.
        """
        base = f"/projects/{quote(project_path, safe='')}/merge_requests/{iid}"
        notes = await self._pages(f"{base}/notes")
        own = next((n for n in notes if SUMMARY_MARKER in (n.get("body") or "")), None)
        if own is None:
            check(
                await self._client.post(f"{self._api}{base}/notes", json={"body": post.summary}, headers=self._headers),
                "create the summary note",
            )
            done = "summary note created"
        else:
            check(
                await self._client.put(
                    f"{self._api}{base}/notes/{own['id']}", json={"body": post.summary}, headers=self._headers
                ),
                "edit the summary note",
            )
            done = "summary note updated"
        return f"{done}; {await self._post_lines(base, post)}"

    async def _post_lines(self, base: str, post: ReviewPost) -> str:
        if not post.line_comments:
            return "no line findings"
        marker = line_marker(post.request_id)
        discussions = await self._pages(f"{base}/discussions")
        for discussion in discussions:
            if any(marker in (note.get("body") or "") for note in discussion.get("notes", [])):
                return "line comments already posted for this review"
        versions = check(await self._client.get(f"{self._api}{base}/versions", headers=self._headers), "GET versions")
        latest = versions.json()[0]
        posted = 0
        for comment in post.line_comments:
            position = {
                "position_type": "text", "base_sha": latest["base_commit_sha"], "start_sha": latest["start_commit_sha"],
                "head_sha": latest["head_commit_sha"], "new_path": comment.path, "new_line": comment.line,
            }  # fmt: skip
            response = await self._client.post(
                f"{self._api}{base}/discussions", json={"body": f"{marker}\n{comment.body}", "position": position},
                headers=self._headers,
            )  # fmt: skip
            if response.status_code == 400:  # a line outside the diff: it stays in the summary
                logger.info("GitLab refused a line comment on %s:%d (outside the diff)", comment.path, comment.line)
                continue
            check(response, "open a line discussion")
            posted += 1
        return f"{posted} of {len(post.line_comments)} line comment(s) posted"
