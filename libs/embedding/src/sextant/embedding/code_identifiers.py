"""Code-aware tokens for BM25: identifiers split into their words, the whole identifier kept too."""

from __future__ import annotations

import re
from functools import lru_cache

# An identifier, possibly kebab-joined (CSS classes, CLI flags, file names): `fetch-blob-content`.
_IDENTIFIER = re.compile(r"[^\W_]\w*(?:-[^\W_]\w*)*|_\w*")
_SEPARATORS = re.compile(r"[_\-]+")
_MIN_LENGTH = 2
"""Single letters (loop variables, `x`) carry no meaning for search."""
_CACHED_IDENTIFIERS = 1 << 16
"""Distinct identifiers whose tokens are remembered: code repeats a small vocabulary (`self`, `return`,
its own names), so most identifiers of a repository are split once instead of once per occurrence."""


def split_code_identifiers(text: str) -> list[str]:
    """Tokenise text the way code is searched: `parseHTTPResponse` -> parsehttpresponse parse http response.

    Every identifier yields itself (lowercased, outer `_`/`-` stripped) and, when it has several
    parts, each part: split on `_` and `-`, at lower->Upper changes, at the end of an acronym
    (`HTTPServer` -> http, server) and between letters and digits (`base64` -> base, 64).
    Tokens shorter than two characters are dropped.

    Args:
        text: Source code, docs or a query.

    Returns:
        Lowercase tokens in order of appearance, repeats kept (BM25 counts them).
    """
    tokens: list[str] = []
    for identifier in _IDENTIFIER.findall(text):
        tokens.extend(_identifier_tokens(identifier))
    return tokens


@lru_cache(maxsize=_CACHED_IDENTIFIERS)
def _identifier_tokens(match: str) -> tuple[str, ...]:
    """The tokens of one identifier as matched (a pure function of it, so it is remembered)."""
    identifier = match.strip("_-")
    if not identifier:
        return ()
    parts = [part for segment in _SEPARATORS.split(identifier) for part in _case_parts(segment)]
    whole = identifier.lower()
    tokens = [whole] if len(parts) != 1 and len(whole) >= _MIN_LENGTH else []
    tokens.extend(part.lower() for part in parts if len(part) >= _MIN_LENGTH)
    return tuple(tokens)


def _case_parts(segment: str) -> list[str]:
    """Split one separator-free segment at case and letter/digit boundaries (Unicode-aware)."""
    parts: list[str] = []
    start = 0
    for position in range(1, len(segment)):
        previous, current = segment[position - 1], segment[position]
        following = segment[position + 1] if position + 1 < len(segment) else ""
        if (
            (previous.islower() and current.isupper())
            or (previous.isdigit() != current.isdigit())
            # End of an acronym: the last capital of "HTTPServer" starts "Server".
            or (previous.isupper() and current.isupper() and following.islower())
        ):
            parts.append(segment[start:position])
            start = position
    if segment:
        parts.append(segment[start:])
    return parts
