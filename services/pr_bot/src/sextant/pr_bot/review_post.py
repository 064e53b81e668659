"""What the bot posts for one review: a summary comment it owns, and line comments where a finding has a line."""

from __future__ import annotations

from dataclasses import dataclass

from sextant.contracts import ReviewCompleted

SUMMARY_MARKER = "<!-- sextant-review -->"
"""Hidden in the bot's summary comment, so that the next review of the same change edits it in place."""
MAX_COMMENT_CHARS = 60_000
"""GitHub refuses comments over 65,536 characters; GitLab's limit is larger. Long reviews are cut."""


def line_marker(request_id: str) -> str:
    """Hidden in the line comments of one review request, so that a redelivered review is not posted twice.

    Args:
        request_id: The ReviewRequested event id the review answers.

    Returns:
        An HTML comment.
    """
    return f"<!-- sextant-review-lines {request_id} -->"


@dataclass(frozen=True)
class LineComment:
    """A finding on one line of the new side of the diff."""

    path: str
    line: int
    body: str


@dataclass(frozen=True)
class ReviewPost:
    """Everything to post for one ReviewCompleted."""

    summary: str
    line_comments: list[LineComment]
    request_id: str


def review_post(event: ReviewCompleted) -> ReviewPost:
    """Build the summary comment and the line comments of a review.

    Args:
        event: The review.

    Returns:
        The post; the summary starts with SUMMARY_MARKER.
    """
    footer = f"\n\n---\n_Sextant review, run `{event.run_id}`, {event.occurred_at}; model: {event.model}._"
    markdown = (
        event.markdown
        if len(event.markdown) <= MAX_COMMENT_CHARS
        else event.markdown[:MAX_COMMENT_CHARS] + "\n\n…(cut)"
    )
    comments = [
        LineComment(path=finding.path, line=finding.line, body=f"**{finding.severity}**: {finding.message}")
        for finding in event.findings
        if finding.line is not None and finding.line > 0 and finding.path
    ]
    return ReviewPost(
        summary=f"{SUMMARY_MARKER}\n{markdown}{footer}", line_comments=comments, request_id=event.request_id
    )


def describe_post(post: ReviewPost, where: str) -> str:
    """What a dry run prints.

    Args:
        post: The post.
        where: The pull/merge request, e.g. "github octo/shop#7".

    Returns:
        Plain text.
    """
    lines = [f"would post to {where}:", "--- summary comment (created once, then edited in place) ---", post.summary]
    for comment in post.line_comments:
        lines.append(f"--- line comment {comment.path}:{comment.line} ---")
        lines.append(comment.body)
    return "\n".join(lines)
