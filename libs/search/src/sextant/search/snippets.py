"""A short, readable excerpt of a chunk: the lines where the query's words appear."""

from __future__ import annotations

from sextant.embedding import split_code_identifiers

SNIPPET_LINES = 3
"""Lines shown per hit."""
SNIPPET_LINE_CHARS = 160
"""Longest line shown; longer ones are cut with an ellipsis."""


def snippet_for(text: str, query: str, *, lines: int = SNIPPET_LINES) -> str:
    """The best window of ``lines`` lines: the one holding most of the query's words (first line on a tie).

    Args:
        text: The chunk's text.
        query: The query (tokenised as code is).
        lines: Window height.

    Returns:
        Up to ``lines`` non-blank lines, each at most SNIPPET_LINE_CHARS long.
    """
    body = [line.rstrip() for line in text.splitlines() if line.strip()]
    if not body:
        return ""
    terms = set(split_code_identifiers(query))
    weights = [len(terms.intersection(split_code_identifiers(line))) for line in body]
    start = max(range(len(body)), key=lambda i: (sum(weights[i : i + lines]), -i))
    return "\n".join(_cut(line) for line in body[start : start + lines])


def has_token(line: str, identifier: str) -> bool:
    """Whether ``identifier`` appears in ``line`` as a whole token (not inside a longer name).

    Args:
        line: One line of text.
        identifier: The exact identifier.

    Returns:
        True when some occurrence has no identifier character on either side.
    """
    start = line.find(identifier)
    while start != -1:
        before = line[start - 1] if start else " "
        end = start + len(identifier)
        after = line[end] if end < len(line) else " "
        if not (before.isalnum() or before == "_") and not (after.isalnum() or after == "_"):
            return True
        start = line.find(identifier, start + 1)
    return False


def _cut(line: str) -> str:
    return line if len(line) <= SNIPPET_LINE_CHARS else line[: SNIPPET_LINE_CHARS - 1] + "…"
