"""The review prompt: the change, then the codebase context framed so that code outranks docs.

The prompt goes to a hosted model: the change's texts arrive masked (``ReviewRequested`` masks its
title, description and diff; a diff read with git is masked per file as it is read), and each
context chunk is masked here by the rules of its file's kind.
"""

from __future__ import annotations

from collections.abc import Sequence

from sextant.llm.untrusted import UNTRUSTED_DATA_RULE, fence_untrusted
from sextant.reviewer.recency_context import ContextDecision
from sextant.secret_rules import redact_file_text

CODE_IS_AUTHORITATIVE = "Where documentation and code conflict, the code is authoritative."

REVIEW_SYSTEM_PROMPT = f"""You are a careful senior engineer reviewing a change to a repository.
Report real problems: bugs, security issues, broken contracts, missing tests, and documentation the
change makes wrong. Be specific and cite file and line. Do not praise; do not restate the diff.
{UNTRUSTED_DATA_RULE}

Answer with a JSON array only, each item {{"path": str, "line": int|null, "severity":
"info"|"warning"|"error", "message": str}}. An empty array means nothing worth saying."""


def build_review_prompt(
    *,
    title: str,
    description: str,
    diff: str,
    decisions: Sequence[ContextDecision],
    max_diff_chars: int = 60_000,
) -> str:
    """The user prompt: the change (fenced) and the kept context chunks with their headers (fenced).

    Args:
        title: Title of the change.
        description: Its description.
        diff: The unified diff (cut at ``max_diff_chars``, saying so).
        decisions: The recency decisions; only kept chunks appear.
        max_diff_chars: Bound on the diff's share of the prompt.

    Returns:
        The prompt text.
    """
    shown_diff = diff if len(diff) <= max_diff_chars else diff[:max_diff_chars] + "\n[diff cut here]"
    parts = [
        "## Change under review",
        fence_untrusted("change title and description", f"{title}\n\n{description}".strip()),
        fence_untrusted("unified diff", shown_diff),
        "## Codebase context",
        "Chunks retrieved from the repository for this change, most relevant first. Each fenced chunk "
        "starts with a header line giving the file, lines and last-modified date. " + CODE_IS_AUTHORITATIVE,
    ]
    for decision in decisions:
        if decision.kept:
            # The header names a repository path, so it is data too: it goes inside the fence.
            payload = decision.chunk.payload
            text = redact_file_text(payload.path, payload.text)
            parts.append(fence_untrusted(payload.path, f"{decision.header}\n{text}"))
    return "\n\n".join(parts)
