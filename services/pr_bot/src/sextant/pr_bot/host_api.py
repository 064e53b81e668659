"""What the GitHub and GitLab posters share: one REST API's base and auth headers, paged listing, and
the summary comment the bot owns (found by its marker, created once, edited on each new review)."""

from __future__ import annotations

from typing import Any

import httpx

from sextant.pr_bot.host_errors import check
from sextant.pr_bot.review_post import SUMMARY_MARKER

PAGE_SIZE = 100
MAX_PAGES = 20
"""At most 2,000 comments are searched for the bot's own; a busier thread gets a new summary comment."""


class HostApi:
    """One code host's REST API, called with the bot's headers (the token travels only in them)."""

    def __init__(self, client: httpx.AsyncClient, api: str, headers: dict[str, str]) -> None:
        """Args:
        client: Shared HTTP client.
        api: API base URL.
        headers: Auth and media-type headers sent with every request.
        """
        self._client = client
        self._api = api.rstrip("/")
        self._headers = headers

    async def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """Send one request below the API base; the answer is returned unchecked."""
        return await self._client.request(method, f"{self._api}{path}", headers=self._headers, **kwargs)

    async def checked(self, method: str, path: str, what: str, **kwargs: Any) -> httpx.Response:
        """Send one request and `check` the answer (`what` names it in a refusal)."""
        return check(await self.request(method, path, **kwargs), what)

    async def pages(self, path: str) -> list[dict[str, Any]]:
        """Every item of a paged listing, up to `MAX_PAGES` pages."""
        items: list[dict[str, Any]] = []
        for page in range(1, MAX_PAGES + 1):
            response = await self.checked("GET", path, f"GET {path}", params={"per_page": PAGE_SIZE, "page": page})
            batch = response.json()
            items.extend(batch)
            if len(batch) < PAGE_SIZE:
                break
        return items

    async def upsert_summary(
        self, comments: str, comment_prefix: str, edit_method: str, summary: str, noun: str
    ) -> str:
        """Create the bot's summary comment, or edit the one it wrote before.

        Args:
            comments: Path that lists the thread's comments and creates new ones.
            comment_prefix: Path of one comment, up to its id.
            edit_method: HTTP method that edits a comment (PATCH or PUT).
            summary: The comment's text (it carries `SUMMARY_MARKER`).
            noun: What the host calls it ("comment", "note"), for the answer and refusals.

        Returns:
            What was done, in words.
        """
        own = next((c for c in await self.pages(comments) if SUMMARY_MARKER in (c.get("body") or "")), None)
        if own is None:
            await self.checked("POST", comments, f"create the summary {noun}", json={"body": summary})
            return f"summary {noun} created"
        await self.checked(
            edit_method, f"{comment_prefix}{own['id']}", f"edit the summary {noun}", json={"body": summary}
        )
        return f"summary {noun} updated"
