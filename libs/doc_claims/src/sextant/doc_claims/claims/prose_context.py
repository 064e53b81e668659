"""What the sentence around a literal says about it: an example, a file to create, a named piece of code."""

from __future__ import annotations

import re
from typing import Literal

from sextant.doc_claims.claims.known_names import CODE_NOUNS, CODE_VERBS, COMMAND_NOUNS, CONFIG_NOUNS, MODULE_NOUNS

# Clause boundaries: blank lines, list items, headings, table cells, and sentence ends that are not
# the dots of "e.g." / "i.e." / "etc." / "vs.".
_CLAUSE_BREAK = re.compile(
    r"\n[ \t]*\n|\n[ \t]*(?:[-*+]|\d+[.)])[ \t]|\n#+[ \t]|\||"
    r"(?<!\be\.g)(?<!\bi\.e)(?<!\betc)(?<!\bvs)(?<!\beg)[.!?](?=\s)"
)
_BREAK_CHARACTER = re.compile(r"[\n|.!?]")
_EXAMPLE = re.compile(r"\b(?:e\.g\b\.?|eg\.|for example|for instance|such as|example:|examples:)|\blike\s*$", re.I)
_CREATE = re.compile(
    r"\b(?:create|creates|creating|touch|generate|generates|add (?:a|an) (?:new )?file|new file|"
    r"save (?:it )?(?:as|to)|your)\b|\b(?:copy|cp|rename|move|mv)\b.*\b(?:to|as|into)\s*$",
    re.I,
)
_NEW = re.compile(
    r"\b(?:new|add|adds|adding|define|defining|declare|implement|implementing|introduce|rename\w* to)\s*"
    r"(?:(?:a|an|the|your)\s+)?(?:new\s+)?$",
    re.I,
)
_ENVIRONMENT = re.compile(r"\b(?:env|environment|variables?|export|exported|set|unset|dotenv)\b|\$", re.I)
_LAST_WORD = re.compile(r"([A-Za-z]+)\W*$")
_NEXT_WORD = re.compile(r"^\W{0,2}\s*([A-Za-z]+)")

NounKind = Literal["code", "module", "command", "config"]


def clause_before(text: str, offset: int, limit: int = 120) -> str:
    """The part of the clause that precedes `offset` (at most `limit` characters).

    Args:
        text: The whole doc text.
        offset: Where the literal starts.
        limit: How far back to look.

    Returns:
        The text between the last clause boundary and the literal.
    """
    window = text[max(0, offset - limit) : offset]
    cut = 0
    # Walk break characters from the end and keep the first real boundary: far cheaper than
    # running the whole boundary pattern over the window for every literal.
    for candidate in reversed([m.start() for m in _BREAK_CHARACTER.finditer(window)]):
        if (boundary := _CLAUSE_BREAK.match(window, candidate)) is not None:
            cut = boundary.end()
            break
    return window[cut:].rstrip("`+")  # the opening marks of a ``literal`` or `+literal+`


def is_example(clause: str) -> bool:
    """Whether the clause introduces what follows as an example ("e.g.", "such as", "for example")."""
    return _EXAMPLE.search(clause) is not None


def tells_to_create(clause: str) -> bool:
    """Whether the clause tells the reader to create, copy to or own the file that follows."""
    return _CREATE.search(clause) is not None


def introduces_new(clause: str) -> bool:
    """Whether the words right before a literal introduce something new ("add a new `x`", "define `y`")."""
    return _NEW.search(clause[-40:]) is not None  # anchored at the end: the tail is enough


def mentions_environment(clause: str, after: str) -> bool:
    """Whether the clause or the words after a literal talk about environment variables."""
    return _ENVIRONMENT.search(clause) is not None or _ENVIRONMENT.search(after[:30]) is not None


def noun_near(clause: str, after: str) -> NounKind | None:
    """What the word just before or just after a literal says it is ("function `f`", "`x` setting").

    Args:
        clause: Text of the clause before the literal.
        after: Text right after the literal.

    Returns:
        "code" for function/class/method-like nouns or "calls", "module" for modules and packages,
        "command" for commands, "config" for settings and options; None when the neighbours say
        nothing.
    """
    words = []
    if (before := _LAST_WORD.search(clause[-40:])) is not None:
        words.append(before.group(1).lower())
    if (following := _NEXT_WORD.search(after)) is not None:
        words.append(following.group(1).lower())
    for word in words:
        if word in CODE_NOUNS or word in CODE_VERBS:
            return "code"
        if word in MODULE_NOUNS:
            return "module"
        if word in COMMAND_NOUNS:
            return "command"
        if word in CONFIG_NOUNS:
            return "config"
    return None
