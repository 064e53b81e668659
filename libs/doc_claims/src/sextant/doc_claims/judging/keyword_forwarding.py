"""Where a definition's `**kwargs` goes: whether it can still take a keyword its parameter list dropped.

A list that now ends in `**kwargs` may take anything, or nothing more than before: it depends on
what the body does with the dictionary. Read honestly, the keywords a definition takes are its
named parameters, the keys its body reads out of the dictionary (`kwargs.pop("message")`,
`kwargs.get("x")`, `kwargs["x"]`, `"x" in kwargs`), and, where the body passes the dictionary on
(`ClientSession(loop=loop, **kwargs)`, `self._request(method, url, **kwargs)`), whatever that
callee takes, when the callee is one of ours whose declaration is known. Passing it to the
caller's own callable (`func(*args[1:], **kwargs)` with `func = args[0]`) takes none of ours.
Anything else (another library's callee, the dictionary stored, merged, iterated) may take any
keyword, and then a dropped parameter is no news.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sextant.doc_claims.judging.signatures import catch_all_name, declaration_end, parameter_names

_MAX_DEPTH = 3
_STRING_KEY = r"""\s*(?:"([^"\\]+)"|'([^'\\]+)')"""
_REPORTING = frozenset({"len", "sorted", "list", "bool", "set", "tuple"})
"""Calls that only look at the dictionary (a size, its keys for an error message)."""


@dataclass(frozen=True)
class Callee:
    """A definition the dictionary may be passed to: its declarations and its body, when known."""

    signatures: tuple[str, ...]
    name: str
    """The name its declarations declare (`__init__` for a class's constructor)."""
    body: str
    """Its source, empty when unknown (then only its named parameters count)."""


ResolveCallee = Callable[[str], "Callee | None"]
"""The callee written before a call's `(` (`ClientSession`, `self._request`) → one of ours, or None."""


def accepted_keywords(
    signatures: Iterable[str], name: str, body: str, resolve: ResolveCallee, *, depth: int = 0
) -> frozenset[str] | None:
    """The keywords a definition takes, or None when it may take any.

    Args:
        signatures: Its declarations (overloads count as one definition).
        name: The name they declare.
        body: Its source (the implementation's, for overloads).
        resolve: Finds the callees the dictionary is passed to.
        depth: How many callees deep this is (a chain longer than a few may take anything).

    Returns:
        Named parameters, keys read from the catch-all, and what its callees take; None when a
        catch-all goes where it is not known what it takes.
    """
    signatures = list(signatures)
    named = _named_parameters(signatures, name)
    catch_alls = {found for signature in signatures if (found := catch_all_name(signature, name)) is not None}
    if named is None or (catch_alls and (not body.strip() or depth >= _MAX_DEPTH)):
        return None
    taken = set(named)
    if not catch_alls:
        return frozenset(taken)
    parameters = set(taken)
    for catch_all in catch_alls:
        uses = _uses(body, catch_all, parameters, declaration_end(body, name))
        if uses is None:
            return None
        reads, callees = uses
        taken |= reads
        for written in callees:
            callee = resolve(written)
            if callee is None:
                return None
            more = accepted_keywords(callee.signatures, callee.name, callee.body, resolve, depth=depth + 1)
            if more is None:
                return None
            taken |= more
    return frozenset(taken)


def _named_parameters(signatures: list[str], name: str) -> set[str] | None:
    """The parameters the declarations name; None when one's list cannot be read (cut short where the
    index stores a long signature, as aiohttp's `ClientSession._request`, or unparsable): then the
    definition may take anything."""
    taken: set[str] = set()
    for signature in signatures:
        names = parameter_names(signature, name)
        if names is None:
            return None
        taken.update(names)
    return taken


def keyword_reads(signatures: Iterable[str], name: str, body: str) -> frozenset[str]:
    """The keys a definition's body reads out of its `**` catch-all (`kwargs.pop("message")`): keywords it took.

    Args:
        signatures: Its declarations.
        name: The name they declare.
        body: Its source.

    Returns:
        The keys, empty without a catch-all.
    """
    found: set[str] = set()
    for catch_all in {c for signature in signatures if (c := catch_all_name(signature, name)) is not None}:
        found |= _reads(body, catch_all)
    return frozenset(found)


def _reads(body: str, catch_all: str) -> set[str]:
    word = re.escape(catch_all)
    return {
        next(group for group in match.groups() if group)
        for match in re.finditer(
            rf"\b{word}\s*(?:\.(?:pop|get|setdefault)\(|\[){_STRING_KEY}|{_STRING_KEY}\s+(?:not\s+)?in\s+{word}\b",
            body,
        )
    }


def _uses(body: str, catch_all: str, parameters: set[str], start: int) -> tuple[set[str], list[str]] | None:
    """(keys read, callees the dictionary is passed to), or None when it is used in any other way."""
    word = re.escape(catch_all)
    reads = _reads(body, catch_all)
    callers_own = parameters | set(re.findall(r"^\s*([A-Za-z_]\w*)\s*=\s*args\b", body, re.M))
    callees: list[str] = []
    for match in re.finditer(rf"(?<![\w.]){word}\b", body):
        if match.start() < start:
            continue  # the declaration itself
        before = body[: match.start()]
        after = body[match.end() :]
        if before.endswith("**"):
            callee = _callee_of(before[:-2])
            if callee is None:
                return None  # `{**kwargs}` or a call whose callee cannot be read
            if callee not in callers_own:  # the caller's own callable takes its own keywords
                callees.append(callee)
        elif _is_key_read(before, after):
            continue
        elif re.search(r"\b(?:if|not|and|or|elif)\s+$", before) is not None and re.match(
            r"\s*(?::|and\b|or\b|\))", after
        ):
            continue  # a truth test
        elif (call := re.search(r"\b([A-Za-z_]\w*)\(\s*$", before)) is not None and call.group(1) in _REPORTING:
            continue
        else:
            return None
    return reads, callees


def _is_key_read(before: str, after: str) -> bool:
    """Whether an occurrence reads one key (`kwargs.pop("x")`, `kwargs["x"]`, `"x" in kwargs`)."""
    return (
        re.match(r"\s*(?:\.(?:pop|get|setdefault)\(|\[)" + _STRING_KEY, after) is not None
        or re.search(_STRING_KEY + r"\s+(?:not\s+)?in\s+$", before) is not None
    )


def _callee_of(before: str) -> str | None:
    """The callee of the call whose argument list `before` ends inside: `ClientSession`, `self._request`."""
    depth = 0
    for index in range(len(before) - 1, -1, -1):
        char = before[index]
        if char in ")]}":
            depth += 1
        elif char in "([{":
            if depth:
                depth -= 1
                continue
            if char != "(":
                return None
            match = re.search(r"((?:[A-Za-z_]\w*(?:\(\))?\.)*[A-Za-z_]\w*)\s*$", before[:index])
            return match.group(1) if match else None
    return None
