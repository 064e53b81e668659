"""Outdated, redefined: a claim is outdated only when the definition it names changed after the doc.

"Changed" means what a reader of the doc would trip over: a function or method lost a parameter
the doc's text uses, or a class lost a member or field the doc's text uses. The doc's side is its
last commit (every line of the doc is at least that old, so a definition changed after it changed
after the line); the definition is read at that commit and at the head. A file that changed
without the definition losing anything the doc mentions is no alarm. The evidence says what was
lost, when, and by which commit (one path-limited `git log -G` for all such changes).
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections import defaultdict
from dataclasses import dataclass

from sextant.doc_claims.claims.claim import Claim
from sextant.doc_claims.judging.checking import Resolution
from sextant.doc_claims.judging.code_facts import CodeFacts
from sextant.doc_claims.judging.qualified_names import member_of_class
from sextant.doc_claims.judging.signatures import class_fields, parameter_names
from sextant.doc_rules import calendar_day
from sextant.gitsource.errors import GitTimeoutError
from sextant.gitsource.history_access import HistoryRepository
from sextant.gitsource.history_changes import blob_ids, dropping_commits
from sextant.gitsource.history_trees import read_objects
from sextant.parsing import Symbol, decode_source, parse_symbols

_DEFINITIONS = frozenset({"function", "method", "constructor", "class", "struct", "interface", "record"})
_CLASSES = frozenset({"class", "struct", "interface", "record"})
_CONSTRUCTORS = ("__init__", "constructor", "New")
DEFINITION_CHANGE_SECONDS = 10.0
"""Wall-time budget for comparing definitions with their state at the docs' commits."""
_NEARBY_LINES = 12
"""How far from the claim the doc's text is searched for the lost name (a paragraph or a code sample)."""


@dataclass(frozen=True)
class DocLines:
    """A doc's text as the judge reads it: to see whether it uses a lost name near a claim."""

    text: str
    first_line: int


@dataclass(frozen=True)
class _Loss:
    index: int
    what: str
    """`parameter` or `member`."""
    names: tuple[str, ...]
    qualified: str
    path: str
    doc_commit: str
    doc_day: str


def revise_with_definition_changes(
    judged: list[tuple[Claim, Resolution]],
    facts: CodeFacts,
    repo: HistoryRepository,
    doc_commits: dict[str, tuple[str, str]],
    doc_texts: dict[str, DocLines],
    *,
    max_bytes: int,
    max_seconds: float = DEFINITION_CHANGE_SECONDS,
) -> list[tuple[Claim, Resolution]]:
    """Mark verified claims outdated where their definition lost what the doc uses, with evidence.

    Args:
        judged: Claims with their resolutions.
        facts: The head's code facts.
        repo: The opened repository.
        doc_commits: Doc path → (its last commit, that commit's date).
        doc_texts: Doc path → its text.
        max_bytes: Cap on the diff text read to name the changing commits.
        max_seconds: Wall-time budget; files not compared by then are left as they are.

    Returns:
        The claims with revised resolutions, in the same order.
    """
    candidates = [
        (index, claim, resolution)
        for index, (claim, resolution) in enumerate(judged)
        if claim.kind == "symbol"
        and resolution.status == "verified"
        and resolution.site is not None
        and resolution.site.symbol_type in _DEFINITIONS
        and claim.doc in doc_commits
        and doc_commits[claim.doc][0] != repo.head
    ]
    if not candidates:
        return judged
    deadline = time.monotonic() + max_seconds
    pairs = {(doc_commits[c.doc][0], r.site.path) for _, c, r in candidates if r.site}
    old_symbols = _old_definitions(repo, pairs, deadline)
    losses = []
    for index, claim, resolution in candidates:
        site = resolution.site
        if site is None:
            continue
        sha, day = doc_commits[claim.doc]
        old = old_symbols.get((sha, site.path))
        if old is None:
            continue  # the file is unchanged since the doc, or did not exist then
        nearby = _nearby_words(doc_texts.get(claim.doc), claim.line)
        lost = _lost(site.qualified, site.symbol_type, site.path, old, facts, nearby)
        if lost is not None:
            what, names, qualified = lost
            losses.append(_Loss(index, what, names, qualified, site.path, sha, day))
    if not losses or time.monotonic() > deadline:
        return judged
    try:
        commits = _changing_commits(
            dataclasses.replace(repo, timeout=max(1.0, deadline - time.monotonic())), losses, max_bytes
        )
    except GitTimeoutError:
        return judged
    revised = list(judged)
    for loss in losses:
        changed = _describe(loss, commits)
        if changed is None:
            continue  # no commit after the doc drops it: a parse quirk, not news
        claim, resolution = judged[loss.index]
        revised[loss.index] = (claim, dataclasses.replace(resolution, changed=changed, evidence=changed))
    return revised


def _old_definitions(
    repo: HistoryRepository, pairs: set[tuple[str, str]], deadline: float
) -> dict[tuple[str, str], dict[str, list[Symbol]]]:
    """The definitions of each (doc commit, file) whose blob differs from the head's, by qualified name."""
    specs = {pair: f"{pair[0]}:{pair[1]}" for pair in pairs}
    heads = {path: f"{repo.head}:{path}" for _, path in pairs}
    ids = blob_ids(repo, [*specs.values(), *heads.values()])
    changed = {
        pair: ids[spec]
        for pair, spec in specs.items()
        if spec in ids and ids.get(heads[pair[1]]) not in {None, ids[spec]}
    }
    contents = read_objects(repo, set(changed.values()))
    parsed: dict[str, dict[str, list[Symbol]]] = {}
    result = {}
    for pair, blob in sorted(changed.items()):
        if time.monotonic() > deadline:
            break  # the budget is spent: the files left are not compared
        if blob not in parsed and blob in contents:
            by_name: dict[str, list[Symbol]] = defaultdict(list)
            for symbol in parse_symbols(pair[1], decode_source(contents[blob])):
                if symbol.name:
                    by_name[f"{symbol.parent}.{symbol.name}" if symbol.parent else symbol.name].append(symbol)
            parsed[blob] = by_name
        if blob in parsed:
            result[pair] = parsed[blob]
    return result


def _nearby_words(doc: DocLines | None, line: int) -> set[str]:
    if doc is None:
        return set()
    lines = doc.text.split("\n")
    start = max(0, line - doc.first_line - _NEARBY_LINES)
    window = "\n".join(lines[start : line - doc.first_line + _NEARBY_LINES + 1])
    return set(re.findall(r"[A-Za-z_]\w*", window))


def _lost(  # noqa: PLR0917 - one definition's old and new forms, and the doc's words
    qualified: str, symbol_type: str, path: str, old: dict[str, list[Symbol]], facts: CodeFacts, nearby: set[str]
) -> tuple[str, tuple[str, ...], str] | None:
    """What the definition lost that the doc's nearby text uses: (what, names, the definition's name)."""
    name = qualified.rsplit(".", 1)[-1]
    if symbol_type in _CLASSES:
        for constructor in _CONSTRUCTORS:
            key = f"{qualified}.{constructor}"
            if key in old and (path, key) in facts.signatures:
                before = [symbol.signature for symbol in old[key]]
                lost = _lost_parameters(before, facts.signatures[(path, key)], constructor, nearby)
                if lost:
                    return "parameter", lost, key
        return _lost_members(qualified, path, old, facts, nearby)
    before = [symbol.signature for symbol in old.get(qualified, ())]
    now = facts.signatures.get((path, qualified))
    if not before or now is None:
        return None
    lost = _lost_parameters(before, now, name, nearby)
    return ("parameter", lost, qualified) if lost else None


def _lost_parameters(before: list[str], now: tuple[str, ...], name: str, nearby: set[str]) -> tuple[str, ...]:
    """Parameters of any old form (overloads, getter and setter) that no form at the head has."""
    old_forms = [parameter_names(signature, name) for signature in before]
    new_forms = [parameter_names(signature, name) for signature in now]
    if any(form is None for form in old_forms + new_forms):
        return ()
    old_names = dict.fromkeys(p for form in old_forms if form for p in form)
    new_names = {p for form in new_forms if form for p in form}
    return tuple(p for p in old_names if p not in new_names and p in nearby and len(p) > 1)


def _lost_members(
    qualified: str, path: str, old: dict[str, list[Symbol]], facts: CodeFacts, nearby: set[str]
) -> tuple[str, tuple[str, ...], str] | None:
    old_forms = old.get(qualified)
    if not old_forms:
        return None
    old_class = old_forms[0]
    prefix = qualified + "."
    members = {key[len(prefix) :] for key in old if key.startswith(prefix) and "." not in key[len(prefix) :]}
    members |= class_fields(old_class.source)
    tokens = facts.file_tokens.get(path, frozenset())
    cls = qualified.rsplit(".", 1)[-1]
    lost = sorted(
        m
        for m in members
        if not m.startswith("_")
        and m in nearby
        and f"{qualified}.{m}" not in facts.qualified_symbols
        and m not in tokens
        and _gone_from_class(cls, m, facts)
    )
    return ("member", tuple(lost), qualified) if lost else None


def _gone_from_class(cls: str, member: str, facts: CodeFacts) -> bool:
    """Whether neither the class nor any base holds the member now (a base from elsewhere may)."""
    lookup = member_of_class(cls, member, facts, qualifier=cls)
    return not lookup.found and lookup.foreign_base is None


def _changing_commits(
    repo: HistoryRepository, losses: list[_Loss], max_bytes: int
) -> dict[tuple[str, str], tuple[str, str, str]]:
    """(lost name, file) → (sha, day, subject) of the commit that dropped it, in one log pass."""
    oldest = min(losses, key=lambda loss: loss.doc_day).doc_commit
    words = {name for loss in losses for name in loss.names}
    paths = {loss.path for loss in losses}
    return {
        (dropped.word, dropped.path): (dropped.commit.sha, dropped.commit.day, dropped.commit.subject)
        for dropped in dropping_commits(repo, oldest, paths, words, max_bytes=max_bytes)
    }


def _describe(loss: _Loss, commits: dict[tuple[str, str], tuple[str, str, str]]) -> str:
    plural = "s" if len(loss.names) > 1 else ""
    what = f"{loss.qualified} lost {loss.what}{plural} {', '.join(loss.names)}"
    found = commits.get((loss.names[0], loss.path))
    doc_day = calendar_day(loss.doc_day) or "an unknown day"
    if found is not None and (calendar_day(found[1]) or "") >= doc_day:
        return (
            f"{what} on {calendar_day(found[1])}, commit {found[0][:7]} '{found[2][:100]}' (doc last changed {doc_day})"
        )
    return f"{what} after the doc last changed ({doc_day})"
