"""The PR bot against local servers speaking GitHub's and GitLab's REST formats."""

from __future__ import annotations

import logging

import httpx
import pytest

from sextant.contracts import RepoRef, ReviewCompleted, ReviewFinding
from sextant.pr_bot.config import PrBotSettings
from sextant.pr_bot.handlers import PrBotDeps, on_review_completed
from sextant.pr_bot.review_post import SUMMARY_MARKER

from ..support.events import doc_drift_finding, review_completed
from .conftest import GITHUB_TOKEN, GITLAB_TOKEN, FakeHost


def _review(
    url: str, provider: str, *, run: str, request: str, findings: list[ReviewFinding] | None = None,
    pr: int | None = 7, markdown: str = "## Review\n\nLooks fine.",
) -> ReviewCompleted:  # fmt: skip
    return review_completed(
        RepoRef.for_url(url, provider=provider), run, request, pr_number=pr, markdown=markdown, findings=findings or []
    )


FINDINGS = [
    ReviewFinding(path="src/auth.py", line=4, severity="warning", message="login_user is gone; app.py still calls it"),
    doc_drift_finding("docs/design.md", 3, "the design doc names login_user()"),
    ReviewFinding(path="src/auth.py", severity="info", message="no line: summary only"),
]


async def test_github_summary_comment_is_created_then_edited_and_line_findings_become_a_review(
    github: FakeHost, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    github.diff_lines = {("src/auth.py", 4), ("docs/design.md", 3)}
    settings = PrBotSettings(github_token=GITHUB_TOKEN, github_api=github.url)
    url = "https://github.com/octo/shop.git"
    async with httpx.AsyncClient() as client:
        deps = PrBotDeps(settings=settings, client=client, show=print)
        first = _review(url, "github", run="r1", request="req-1", findings=FINDINGS)
        assert await on_review_completed(first, deps) == []
        await on_review_completed(first, deps)  # redelivered: nothing is posted twice
        second = _review(url, "github", run="r2", request="req-2", markdown="## Review\n\nSecond push.")
        await on_review_completed(second, deps)

    [comment] = github.comments.values()
    assert comment["body"].startswith(SUMMARY_MARKER)
    assert "Second push." in comment["body"]
    [review] = github.reviews
    assert review["event"] == "COMMENT"
    assert [(c["path"], c["line"], c["side"]) for c in review["comments"]] == [
        ("src/auth.py", 4, "RIGHT"), ("docs/design.md", 3, "RIGHT"),
    ]  # fmt: skip
    assert github.writes() == [
        ("POST", "/repos/octo/shop/issues/7/comments"),
        ("POST", "/repos/octo/shop/pulls/7/reviews"),
        ("PATCH", f"/repos/octo/shop/issues/comments/{comment['id']}"),
        ("PATCH", f"/repos/octo/shop/issues/comments/{comment['id']}"),
    ]
    for _method, _path, headers in github.requests:
        assert headers["authorization"] == f"Bearer {GITHUB_TOKEN}"
        assert headers["x-github-api-version"] == "2022-11-28"
    assert GITHUB_TOKEN not in caplog.text


async def test_github_lines_outside_the_diff_stay_in_the_summary(github: FakeHost) -> None:
    github.diff_lines = set()
    settings = PrBotSettings(github_token=GITHUB_TOKEN, github_api=github.url)
    async with httpx.AsyncClient() as client:
        deps = PrBotDeps(settings=settings, client=client, show=print)
        await on_review_completed(_review("https://github.com/octo/shop", "github", run="r", request="q",
                                          findings=FINDINGS), deps)  # fmt: skip

    assert len(github.comments) == 1
    assert github.reviews == []


async def test_a_bad_token_is_logged_and_skipped_not_retried(
    github: FakeHost, caplog: pytest.LogCaptureFixture
) -> None:
    settings = PrBotSettings(github_token="wrong-token-value", github_api=github.url)
    async with httpx.AsyncClient() as client:
        deps = PrBotDeps(settings=settings, client=client, show=print)
        assert (
            await on_review_completed(_review("https://github.com/octo/shop", "github", run="r", request="q"), deps)
            == []
        )

    assert github.comments == {}
    assert "HTTP 401" in caplog.text
    assert "wrong-token-value" not in caplog.text


async def test_gitlab_note_is_created_then_edited_and_line_findings_become_diff_discussions(gitlab: FakeHost) -> None:
    gitlab.diff_lines = {("src/auth.py", 4)}
    settings = PrBotSettings(gitlab_token=GITLAB_TOKEN, gitlab_api=f"{gitlab.url}/api/v4")
    url = "https://gitlab.example/group/sub/shop.git"
    async with httpx.AsyncClient() as client:
        deps = PrBotDeps(settings=settings, client=client, show=print)
        first = _review(url, "gitlab", run="r1", request="req-1", findings=FINDINGS, pr=3)
        await on_review_completed(first, deps)
        await on_review_completed(first, deps)
        await on_review_completed(_review(url, "gitlab", run="r2", request="req-2", pr=3, markdown="again"), deps)

    [note] = gitlab.comments.values()
    assert "again" in note["body"]
    [discussion] = gitlab.discussions  # docs/design.md:3 is outside the diff: refused, kept in the summary
    position = discussion["notes"][0]["position"]
    assert (position["new_path"], position["new_line"], position["base_sha"]) == ("src/auth.py", 4, "b" * 40)
    project = "/api/v4/projects/group%2Fsub%2Fshop/merge_requests/3"
    edit = ("PUT", f"{project}/notes/{note['id']}")
    assert [w for w in gitlab.writes() if w[0] != "POST" or "discussions" not in w[1]] == [
        ("POST", f"{project}/notes"), edit, edit,
    ]  # fmt: skip
    assert all(headers["private-token"] == GITLAB_TOKEN for _m, _p, headers in gitlab.requests)


async def test_dry_run_prints_and_posts_nothing(github: FakeHost) -> None:
    printed: list[str] = []
    settings = PrBotSettings(github_token=GITHUB_TOKEN, github_api=github.url, dry_run=True)
    async with httpx.AsyncClient() as client:
        deps = PrBotDeps(settings=settings, client=client, show=printed.append)
        await on_review_completed(_review("https://github.com/octo/shop", "github", run="r", request="q",
                                          findings=FINDINGS), deps)  # fmt: skip

    assert github.requests == []
    [text] = printed
    assert text.startswith("would post to github octo/shop#7:")
    assert "--- line comment src/auth.py:4 ---" in text
    assert GITHUB_TOKEN not in text


async def test_reviews_without_a_hosted_pull_request_are_skipped(github: FakeHost) -> None:
    settings = PrBotSettings(github_token=GITHUB_TOKEN, github_api=github.url)
    async with httpx.AsyncClient() as client:
        deps = PrBotDeps(settings=settings, client=client, show=print)
        await on_review_completed(
            _review("https://github.com/octo/shop", "github", run="r", request="q", pr=None), deps
        )
        await on_review_completed(_review("/srv/local/repo", "generic", run="r", request="q"), deps)
        no_token = PrBotDeps(settings=PrBotSettings(github_api=github.url), client=client, show=print)
        await on_review_completed(_review("https://github.com/octo/shop", "github", run="r", request="q"), no_token)

    assert github.requests == []
