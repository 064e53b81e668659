"""Cleaning doc comments and docstrings into plain text."""

from __future__ import annotations

import inspect
import re

_COMMENT_OPENERS = ("/**", "/*!", "/*", "///", "//!", "//", "#", "--")
_STRING_LITERAL = re.compile(r"^[rRbBuUfF]*(\"\"\"|'''|\"|')(.*)\1$", re.DOTALL)


def clean_comment(text: str) -> str:
    """Strip comment markers (`//`, `///`, `#`, `/* */`, leading `*`) from one comment's text.

    Args:
        text: The comment as written.

    Returns:
        The comment's words, one source line per line.
    """
    body = text.strip()
    for opener in _COMMENT_OPENERS:
        if body.startswith(opener):
            body = body[len(opener) :]
            break
    body = body.removesuffix("*/")
    lines = []
    for line in body.split("\n"):
        stripped = line.strip()
        for opener in ("///", "//!", "//", "#"):
            if stripped.startswith(opener):
                stripped = stripped[len(opener) :]
                break
        else:
            if stripped.startswith("*"):
                stripped = stripped[1:]
        lines.append(stripped.strip())
    return "\n".join(lines).strip()


def clean_string_literal(text: str) -> str:
    """Turn a Python string literal (a docstring) into its cleaned content.

    Args:
        text: The literal as written, with prefix and quotes.

    Returns:
        The content with common indentation removed.
    """
    match = _STRING_LITERAL.match(text.strip())
    content = match.group(2) if match else text
    return inspect.cleandoc(content)
