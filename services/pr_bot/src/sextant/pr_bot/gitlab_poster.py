"""GitLab REST: one summary note the bot owns (edited on each new review) and a diff discussion per line finding."""

from __future__ import annotations

import logging
from urllib.parse import quote

import httpx

from sextant.pr_bot.host_api import HostApi
from sextant.pr_bot.host_errors import check
from sextant.pr_bot.review_post import ReviewPost, line_marker

logger = logging.getLogger(__name__)


class GitLabPoster:
    """Posts to one GitLab API."""

    def __init__(self, client: httpx.AsyncClient, api: str, token: str) -> None:
        """Args:
        client: Shared HTTP client.
        api: API base, e.g. https://gitlab.com/api/v4.
        token: Token with the api scope (sent as the PRIVATE-TOKEN header only).
        """
        self._host = HostApi(client, api, {"PRIVATE-TOKEN": token})

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
        done = await self._host.upsert_summary(f"{base}/notes", f"{base}/notes/", "PUT", post.summary, "note")
        return f"{done}; {await self._post_lines(base, post)}"

    async def _post_lines(self, base: str, post: ReviewPost) -> str:
        if not post.line_comments:
            return "no line findings"
        marker = line_marker(post.request_id)
        discussions = await self._host.pages(f"{base}/discussions")
        for discussion in discussions:
            if any(marker in (note.get("body") or "") for note in discussion.get("notes", [])):
                return "line comments already posted for this review"
        versions = await self._host.checked("GET", f"{base}/versions", "GET versions")
        latest = versions.json()[0]
        posted = 0
        for comment in post.line_comments:
            position = {
                "position_type": "text", "base_sha": latest["base_commit_sha"], "start_sha": latest["start_commit_sha"],
                "head_sha": latest["head_commit_sha"], "new_path": comment.path, "new_line": comment.line,
            }  # fmt: skip
            note = {"body": f"{marker}\n{comment.body}", "position": position}
            response = await self._host.request("POST", f"{base}/discussions", json=note)
            if response.status_code == 400:  # a line outside the diff: it stays in the summary
                logger.info("GitLab refused a line comment on %s:%d (outside the diff)", comment.path, comment.line)
                continue
            check(response, "open a line discussion")
            posted += 1
        return f"{posted} of {len(post.line_comments)} line comment(s) posted"
