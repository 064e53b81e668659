"""Names whose own spelling gives them to another project, once the code is known.

The sentence need not say "Flask's" for a name to be someone else's; the name may say it itself:

- a Sphinx cross-reference into another project's inventory (`:envvar:`python:PYTHONWARNINGS``,
  `:data:`python:doctest.REPORT_NDIFF``): the part before the colon names the inventory (intersphinx),
  never this repository's docs;
- a path to a class through a root this repository has nothing by (`kombu.Connection.ensure`,
  `requests.sessions.Session.request`): the class is that package's, even when one of our classes
  has the same simple name. A root of ours (`acme.session.Session.close`) leaves the claim as it is.

A claim the history shows was ours (a removing commit found) keeps its alarm: the rules here only
ever turn a contradiction read off the head's code into "unverifiable".
"""

from __future__ import annotations

import re

from sextant.doc_claims.claims.claim import Claim
from sextant.doc_claims.judging.code_facts import CodeFacts

_INVENTORY = re.compile(r"^([a-z][\w-]*):(?=[A-Za-z_])")
"""`python:` of `python:PYTHONWARNINGS`: an intersphinx inventory name before the target."""
_CLASS_TYPES = frozenset({"class", "struct", "interface", "record"})


def foreign_reason(claim: Claim, absent_in_class: str | None, facts: CodeFacts, own: frozenset[str]) -> str | None:
    """Why a claim the head's code contradicts names another project's thing, or None when it is ours.

    Args:
        claim: The claim.
        absent_in_class: The class of ours the member was looked for on, when the claim was read so.
        facts: The code at the judged commit.
        own: The repository's own names, lower-case (import roots, packages, programs).

    Returns:
        The reason, for the evidence; None when nothing in the name gives it away.
    """
    if claim.kind != "path" and (inventory := _INVENTORY.match(claim.target)) is not None:
        return f"{inventory.group(1)}: is another project's documentation inventory (an intersphinx prefix)"
    parts = claim.target.lstrip("~.").split(".")
    if absent_in_class is None or len(parts) < 3 or parts[-2] != absent_in_class:
        return None
    root = parts[0]
    if _is_ours(root, facts, own) or any(_one_edit_apart(root.lower(), name) for name in own):
        return None  # `tich.text.Text` beside our `rich`: a slip of our package's name, still ours
    return f"{absent_in_class} is reached through {root}, which is no package or class of this repository"


def _is_ours(root: str, facts: CodeFacts, own: frozenset[str]) -> bool:
    """Whether a dotted name's first part is one of this repository's packages, modules or classes."""
    if root.lower() in own or root in facts.packages or root in facts.modules:
        return True
    if root.lower() in {slug.rsplit("/", 1)[-1] for slug in facts.forge_repos}:
        return True  # the repository's own name (`axios` of axios/axios), whatever its folders are called
    return any(site.symbol_type in _CLASS_TYPES for site in facts.symbols.get(root, ()))


def _one_edit_apart(first: str, second: str) -> bool:
    """Whether two words differ by one letter changed, added or dropped (`tich` and `rich`)."""
    if abs(len(first) - len(second)) > 1 or first == second:
        return False
    if len(first) == len(second):
        return sum(a != b for a, b in zip(first, second, strict=True)) == 1
    shorter, longer = sorted((first, second), key=len)
    return any(longer[:index] + longer[index + 1 :] == shorter for index in range(len(longer)))
