"""Members of things the reader's own code holds, which a class of ours only shares a name with.

- A lower-case qualifier of its own (`result.get()`, `res.status`) is an instance: the doc's example
  variable, whose type the sentence does not give. A lower-case class of ours with that name (a
  command class `result`) is a coincidence, not what the doc means; `acme.control.purge` stays a
  claim on `acme`.
- An inner class that several classes each define (`Settings.Config`, the samples' `User.Config`),
  and that the source never defines at the top level, is a convention of the reader's classes:
  `Config.orm_mode` names the reader's model's `Config`, whose keys live elsewhere (a base the
  convention reads), not one class of ours.
"""

from __future__ import annotations

from sextant.doc_claims.claims.claim import Claim
from sextant.doc_claims.judging.code_facts import CodeFacts
from sextant.gitsource.history_definitions import is_test_or_sample


def reader_member_reason(claim: Claim, absent_in_class: str | None, facts: CodeFacts) -> str | None:
    """Why a member missing from a class of ours is a member of the reader's own object, or None.

    Args:
        claim: A claim the head's code contradicts.
        absent_in_class: The class of ours the member was looked for on (None when not read so).
        facts: The code at the judged commit.

    Returns:
        The reason, for the evidence; None when the claim names our class.
    """
    parts = claim.target.lstrip("~.").split(".")
    if absent_in_class is None or len(parts) < 2 or parts[-2] != absent_in_class:
        return None
    qualifier = absent_in_class
    if len(parts) == 2 and qualifier[0].islower() and qualifier not in facts.packages:
        return f"{qualifier} is written lower-case, as an instance: the doc's own variable, not a class of ours"
    sites = [site for site in facts.symbols.get(qualifier, ()) if site.symbol_type == "class"]
    parents = {site.qualified.rsplit(".", 1)[0] for site in sites if "." in site.qualified}
    # Tests and samples may define anything at the top level; the source's own classes decide.
    source = [site for site in sites if not is_test_or_sample(site.path)]
    if len(parents) > 1 and all("." in site.qualified for site in source):
        named = ", ".join(f"{parent}.{qualifier}" for parent in sorted(parents)[:3])
        return f"{qualifier} is an inner class several classes define ({named}): the reader's model's, not one of ours"
    return None
