"""Outdated, redefined: a claim is outdated only when the definition it names changed after the doc line.

"Changed" means what a reader of the doc would trip over: a function or method lost a parameter
the doc writes as code near the claim (a code span, a code sample's call of it, an API directive),
or a class lost a member or field the doc writes so. The doc's side is when the claim's line was
last written (one `git blame -L` per doc, for the claims' lines only, for as many docs as the
blame budget allows, `HistoryBudget.blame_commits`, those where a date can make an alarm first (see
blame_order); the doc's last commit for the others); the definition is read then and at the head.
A file that changed without the definition losing anything the doc uses is no alarm, and
neither is a parameter that a `**kwargs` may still take (see keyword_forwarding). The evidence
says what was lost, when, and by which commit (one path-limited `git log -G` for all such changes).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import keyword
import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import lru_cache

from sextant.doc_claims.claims.claim import Claim
from sextant.doc_claims.claims.sentences import sentence_around, tells_history
from sextant.doc_claims.judging.argument_lists import top_level
from sextant.doc_claims.judging.blame_order import Suspect, docs_worth_blaming
from sextant.doc_claims.judging.checking import Resolution
from sextant.doc_claims.judging.code_facts import CodeFacts, SymbolSite, is_sample_path
from sextant.doc_claims.judging.definition_aliases import aliased_definitions, defined_in_text
from sextant.doc_claims.judging.keyword_forwarding import Callee, accepted_keywords, keyword_reads
from sextant.doc_claims.judging.lost_forms import drops, lost_form
from sextant.doc_claims.judging.qualified_names import member_of_class
from sextant.doc_claims.judging.signatures import class_fields, parameter_names, takes_any_keyword
from sextant.doc_claims.syntax.rst_fields import PARAMETER_FIELD
from sextant.doc_rules import calendar_day
from sextant.gitsource.borrowed_git_dir import borrowed_git_dir
from sextant.gitsource.errors import GitSourceError, GitTimeoutError
from sextant.gitsource.history_access import HistoryRepository
from sextant.gitsource.history_budget import BLAME_COMMITS, DEFINITION_SOURCE_BYTES, docs_to_blame
from sextant.gitsource.history_changes import blob_ids
from sextant.gitsource.history_definitions import commit_file_diffs, diffs_naming
from sextant.gitsource.history_trees import read_objects
from sextant.parsing import Symbol, decode_source, parse_symbols

_DEFINITIONS = frozenset({"function", "method", "constructor", "class", "struct", "interface", "record"})
_CLASSES = frozenset({"class", "struct", "interface", "record"})
_CONSTRUCTORS = ("__init__", "constructor", "New")
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
    route: str | None = None
    """How the doc's name is bound to the definition, when it is an alias or a re-export."""


@dataclass(frozen=True)
class _Candidate:
    """A verified claim whose definition may have changed under it."""

    index: int
    claim: Claim
    site: SymbolSite
    route: str | None = None
    """The bindings from the doc's name to the definition, when the name has no declaration of its own."""


def _candidates(
    judged: list[tuple[Claim, Resolution]],
    facts: CodeFacts,
    repo: HistoryRepository,
    doc_commits: dict[str, tuple[str, str]],
) -> list[_Candidate]:
    """The verified symbol claims to compare: those resolved to a definition, and those bound to one.

    A name a module binds without defining (`pytest.fail` re-exported by `pytest/__init__.py`,
    `attr.s` assigned from `attributes`) is compared as the definition its bindings lead to.
    Claims of code samples and of history sentences are not compared.
    """
    comparable = [
        (index, claim, resolution)
        for index, (claim, resolution) in enumerate(judged)
        if claim.kind == "symbol"
        and resolution.status == "verified"
        and claim.doc in doc_commits
        and not claim.in_sample
        and not claim.in_history_sentence  # "was removed in 2.0": the sentence already tells the change
        and (claim.parameter is None or claim.of_field)  # a signature's slot: its directive's claim compares it
    ]
    found = [
        _Candidate(index, claim, resolution.site)
        for index, claim, resolution in comparable
        if resolution.site is not None and resolution.site.symbol_type in _DEFINITIONS
    ]
    unbound = [(index, claim) for index, claim, resolution in comparable if resolution.site is None]
    if unbound:
        head = repo.head

        def head_site(path: str, name: str) -> SymbolSite | None:
            sites = facts.symbols.get(name, ())
            return next(
                (s for s in sites if s.path == path and s.qualified == name and s.symbol_type in _DEFINITIONS), None
            )

        aliased = aliased_definitions(
            ((head, claim.target) for _, claim in unbound),
            facts.import_modules,
            lambda specs: _texts(repo, specs),
            lambda _commit, path, name, _text: head_site(path, name) is not None,
        )
        for index, claim in unbound:
            alias = aliased.get((head, claim.target))
            site = head_site(alias.path, alias.name) if alias is not None else None
            if alias is not None and site is not None:
                found.append(_Candidate(index, claim, site, alias.route))
    return sorted(found, key=lambda candidate: candidate.index)


def _texts(repo: HistoryRepository, specs: set[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """The text of files at commits, by (commit, path); a file that moved since is read where it was (see
    moved_paths), one git cannot read is left out."""
    tried = {spec: [f"{spec[0]}:{path}" for path in (spec[1], *moved_paths(spec[1]))] for spec in specs}
    try:
        contents = read_objects(repo, {name for names in tried.values() for name in names})
    except GitSourceError:
        return {}
    found = {spec: next((name for name in names if name in contents), None) for spec, names in tried.items()}
    return {spec: decode_source(contents[name]) for spec, name in found.items() if name is not None}


def _old_aliases(
    repo: HistoryRepository, candidates: list[_Candidate], sides: dict[int, tuple[str, str]], facts: CodeFacts
) -> dict[int, tuple[str, str]]:
    """Candidate index → (file, name) the doc's name was bound to when its line was written.

    A re-export or an alias may have led elsewhere then (`attr.s` was `_add_methods` before it
    became `attributes`): the doc's signature is compared with what its name meant at the time.
    """
    wanted = [(sides[c.index][0], c.claim.target) for c in candidates if c.route is not None]
    if not wanted:
        return {}
    found = aliased_definitions(
        wanted,
        facts.import_modules,
        lambda specs: _texts(repo, specs),
        lambda _commit, _path, name, text: defined_in_text(name, text),
    )
    return {
        c.index: (alias.path, alias.name)
        for c in candidates
        if c.route is not None and (alias := found.get((sides[c.index][0], c.claim.target))) is not None
    }


def revise_with_definition_changes(
    judged: list[tuple[Claim, Resolution]],
    facts: CodeFacts,
    repo: HistoryRepository,
    doc_commits: dict[str, tuple[str, str]],
    doc_texts: dict[str, DocLines],
    *,
    max_bytes: int,
    max_source_bytes: int = DEFINITION_SOURCE_BYTES,
    blame_commits: int = BLAME_COMMITS,
) -> list[tuple[Claim, Resolution]]:
    """Mark verified claims outdated where their definition lost what the doc uses, with evidence.

    Args:
        judged: Claims with their resolutions.
        facts: The head's code facts.
        repo: The opened repository.
        doc_commits: Doc path → (its last commit, that commit's date).
        doc_texts: Doc path → its text.
        max_bytes: Cap on the diff text read to name the changing commits.
        max_source_bytes: Source bytes parsed at most; claims whose file is left unread say so.
        blame_commits: Commits blame may walk (each doc counted as the first-parent history's length).

    Returns:
        The claims with revised resolutions, in the same order.
    """
    budget = _SourceBudget(max_source_bytes)
    candidates = _candidates(judged, facts, repo, doc_commits)
    if not candidates:
        return judged
    spans = {c.index: claim_lines(doc_texts.get(c.claim.doc), c.claim) for c in candidates}
    words = {c.index: _doc_words(doc_texts.get(c.claim.doc), c) for c in candidates}
    lines_of: dict[str, set[int]] = defaultdict(set)
    for candidate in candidates:
        lines_of[candidate.claim.doc].update(spans[candidate.index])
    written = _blamed(repo, lines_of, blame_commits, lambda: _suspects(candidates, words, facts))

    def doc_sides(candidate: _Candidate) -> dict[tuple[str, str], set[int]]:
        # When each of the claim's lines was last written (a directive continued over lines has
        # several), the claim's own line first; the doc's last commit when blame could not say.
        claim = candidate.claim
        if (claim.doc, claim.line) not in written:
            return {doc_commits[claim.doc]: set(spans[candidate.index])}
        found: dict[tuple[str, str], set[int]] = defaultdict(set)
        for line in spans[candidate.index]:
            found[written.get((claim.doc, line), written[(claim.doc, claim.line)])].add(line)
        return found

    sides = {candidate.index: doc_sides(candidate) for candidate in candidates}
    first = {index: next(iter(found)) for index, found in sides.items()}
    then = _old_aliases(repo, candidates, first, facts)
    where = {c.index: then.get(c.index, (c.site.path, c.site.qualified)) for c in candidates}
    pairs = {(sha, where[c.index][0]) for c in candidates for sha, _ in sides[c.index] if sha != repo.head}
    old_symbols = _old_definitions(repo, pairs, budget)
    head = _HeadCode(repo, facts, budget)
    losses = []
    for candidate in candidates:
        claim, site = candidate.claim, candidate.site
        old_path, old_name = where[candidate.index]
        doc = doc_texts.get(claim.doc)
        nearby, reads, constructs = words[candidate.index]
        for (sha, day), lines in sides[candidate.index].items():
            old = old_symbols.get((sha, old_path))
            if old is None:
                continue  # the file is unchanged since the line, or did not exist then
            lost = _lost(
                site.qualified,
                site.symbol_type,
                site.path,
                old,
                facts,
                nearby,
                reads=reads,
                head=head,
                old_name=old_name,
                constructs=constructs,
                parameters_only=claim.of_field,
            )
            if lost is None:
                continue
            what, lost_names, qualified = lost
            # At the claim's own line's date every name counts, as for a one-line claim; at another
            # line's date, the names that line writes (a parameter added on a continuation line
            # was written when that line was).
            own_line = claim.line in lines
            dated = tuple(
                n for n in lost_names if own_line or word_line(doc, claim, spans[candidate.index], n) in lines
            )
            if dated:
                losses.append(_Loss(candidate.index, what, dated, qualified, site.path, sha, day, candidate.route))
    revised = _budget_notes(judged, candidates, sides, where, budget)
    if not losses:
        return revised
    try:
        commits = _changing_commits(repo, losses, max_bytes)
    except GitTimeoutError:
        return revised  # a hung git (its process timeout), not a slow one: no commit can be named
    for loss in losses:
        changed = _describe(loss, commits)
        if changed is None or revised[loss.index][1].changed is not None:
            continue  # no commit after the doc drops it (a parse quirk, not news), or already told
        claim, resolution = judged[loss.index]
        revised[loss.index] = (claim, dataclasses.replace(resolution, changed=changed, evidence=changed))
    return revised


@dataclass
class _SourceBudget:
    """The source bytes the comparison may still parse, and the (doc commit, file) pairs it left unread."""

    left: int
    size: int = 0
    unread: set[tuple[str, str]] = dataclasses.field(default_factory=set)

    def __post_init__(self) -> None:
        self.size = self.left

    def spend(self, source: bytes) -> bool:
        """Whether a file of this size may still be parsed; if so, its bytes are spent."""
        if len(source) > self.left:
            self.left = 0  # files are read in a fixed order, so the cut falls at the same file on any machine
            return False
        self.left -= len(source)
        return True


def _budget_notes(
    judged: list[tuple[Claim, Resolution]],
    candidates: list[_Candidate],
    sides: dict[int, dict[tuple[str, str], set[int]]],
    where: dict[int, tuple[str, str]],
    budget: _SourceBudget,
) -> list[tuple[Claim, Resolution]]:
    """The claims, each whose definition's old file the budget left unread saying so in its evidence."""
    revised = list(judged)
    if not budget.unread:
        return revised
    note = (
        f"; not compared with the definition when the doc line was written: the {budget.size // (1024 * 1024)} MiB "
        "budget of source the outdated check parses was spent"
    )
    for candidate in candidates:
        path = where[candidate.index][0]
        if any((sha, path) in budget.unread for sha, _ in sides[candidate.index]):
            claim, resolution = judged[candidate.index]
            revised[candidate.index] = (claim, dataclasses.replace(resolution, evidence=resolution.evidence + note))
    return revised


def _doc_words(doc: DocLines | None, candidate: _Candidate) -> tuple[set[str], set[str], bool]:
    """What the doc writes as code about a candidate: (its words, the attributes samples read, whether
    it builds the class) (see _nearby_words and names_a_return_type)."""
    claim, site = candidate.claim, candidate.site
    if claim.of_field:
        return _field_parameter(doc, claim), set(), True
    # A call of an alias is written by the doc's name (`attr.s(add_repr=True)`), not the definition's.
    names = {site.qualified.rsplit(".", 1)[-1]} | ({claim.target.rsplit(".", 1)[-1]} if candidate.route else set())
    nearby, reads = _nearby_words(doc, claim, names)
    return nearby, reads, not names_a_return_type(doc, claim)


def _field_parameter(doc: DocLines | None, claim: Claim) -> set[str]:
    """The parameter a directive's field line documents (`:param str endpoint:` → endpoint), unless
    its sentence tells the parameter's history ("no longer used")."""
    if doc is None:
        return set()
    lines = doc.text.split("\n")
    index = claim.line - doc.first_line
    field = PARAMETER_FIELD.match(lines[index]) if 0 <= index < len(lines) else None
    if field is None or _told_as_history(doc, index, index, field.group(1)):
        return set()
    return {field.group(1)}


def _suspects(
    candidates: list[_Candidate], words: dict[int, tuple[set[str], set[str], bool]], facts: CodeFacts
) -> dict[str, list[set[Suspect]]]:
    """Doc → per claim, the names it writes that its definition may have lost, with the definition's file.

    A name the head's definition takes (a function's parameter; for a class, a constructor's
    parameter that is also a word of its file) cannot be lost, whatever the line's date; nor can a
    word of the head's file be a lost member. What is left is what blame can make news of.
    """
    found: dict[str, list[set[Suspect]]] = defaultdict(list)
    for candidate in candidates:
        site = candidate.site
        nearby, reads, constructs = words[candidate.index]
        if site.symbol_type in _CLASSES:
            tokens = facts.file_tokens.get(site.path, frozenset())
            kept = _head_parameters(facts, site, _CONSTRUCTORS) & tokens if constructs else tokens
            written = nearby | reads
        else:
            kept = _head_parameters(facts, site, ())
            written = nearby
        kept |= set(candidate.claim.target.split("."))  # the claim's own name and qualifiers
        lost = {(word, site.path) for word in written - kept if len(word) > 1 and not keyword.iskeyword(word)}
        found[candidate.claim.doc].append(lost)
    return found


def _head_parameters(facts: CodeFacts, site: SymbolSite, members: tuple[str, ...]) -> set[str]:
    """The parameters every head form of a definition (or of its named members, a class's constructors) takes;
    none when a form's list cannot be read."""
    keys = [f"{site.qualified}.{member}" for member in members] if members else [site.qualified]
    taken: set[str] = set()
    for key in keys:
        for signature in facts.signatures.get((site.path, key), ()):
            names = parameter_names(signature, key.rsplit(".", 1)[-1])
            if names is None:
                return set()
            taken.update(names)
    return taken


_BLAME_HEADER = re.compile(rb"^([0-9a-f]{40}(?:[0-9a-f]{24})?) \d+ (\d+)")  # SHA-1 or SHA-256 ids


def _blamed(
    repo: HistoryRepository,
    lines_of: dict[str, set[int]],
    blame_commits: int,
    suspects: Callable[[], dict[str, list[set[Suspect]]]],
) -> dict[tuple[str, int], tuple[str, str]]:
    """The claims' lines blamed within the blame budget (see line_commits).

    When the budget does not reach every doc, it goes to the docs where a line's date can make an
    alarm (see blame_order), the most promising first.
    """
    # Blame is bounded by a number of docs (work, not time), so a long history (git/git's docs)
    # does not make it the costliest step of the check, and where it stops never depends on the machine.
    try:
        blamed_docs = docs_to_blame(repo, blame_commits)
    except GitSourceError:
        return {}
    order = sorted(lines_of) if len(lines_of) <= blamed_docs else docs_worth_blaming(suspects())
    return line_commits(repo, {doc: lines_of[doc] for doc in order}, max_docs=blamed_docs)


def line_commits(
    repo: HistoryRepository, lines_of: dict[str, set[int]], *, max_docs: int
) -> dict[tuple[str, int], tuple[str, str]]:
    """(doc, line) → (commit, ISO date) of the commit that last wrote each line: one `git blame` per doc.

    Only the claims' lines are blamed (`-L n,n` each), in at most `max_docs` docs, in the order given.
    Docs past that, or whose blame fails, are left out: their claims fall back to the doc's last
    commit. The work budget alone decides how many docs are blamed (`max_docs`, from the blame
    commits each may walk: `docs_to_blame`), so which lines are dated never depends on the machine's
    speed or load; there is no deadline here. The one clock left is the process timeout every git
    call of the look-up has (`repo.timeout`), which catches a git that hangs, not one that is slow:
    a blame it stops fails like an unreadable doc. Blame reads the objects through a git directory
    of its own (borrowed_git_dir), so the repository's `blame.ignoreRevsFile` neither skips the
    commits it lists nor, as a relative path, makes every blame fail.

    Args:
        repo: The opened repository.
        lines_of: Doc path → the 1-based lines to blame.
        max_docs: Docs blamed at most (the work budget).

    Returns:
        The commit and committer date of each line blamed.
    """
    found: dict[tuple[str, int], tuple[str, str]] = {}
    docs = list(lines_of.items())[:max_docs]
    if not docs:
        return found
    with contextlib.ExitStack() as scratch:
        try:
            plain = scratch.enter_context(borrowed_git_dir(repo))
        except (GitSourceError, OSError):
            return found  # no scratch folder: the docs' last commits stand, not dates the repository's config skews
        for doc, lines in docs:
            ranges = [arg for line in sorted(lines) for arg in ("-L", f"{line},{line}")]
            try:
                out = plain.git(["blame", "--line-porcelain", "--no-textconv", *ranges, repo.head, "--", doc])
            except GitSourceError:
                continue  # a doc blame cannot read (or a hung git): its doc commit stands
            found.update({(doc, line): side for line, side in _blamed_lines(out).items()})
    return found


def _blamed_lines(out: bytes) -> dict[int, tuple[str, str]]:
    result: dict[int, tuple[str, str]] = {}
    sha, line, when, zone = "", 0, 0, "+0000"
    for raw in out.split(b"\n"):
        if (header := _BLAME_HEADER.match(raw)) is not None:
            sha, line = header.group(1).decode(), int(header.group(2))
        elif raw.startswith(b"committer-time "):
            when = int(raw.split(b" ", 1)[1])
        elif raw.startswith(b"committer-tz "):
            zone = raw.split(b" ", 1)[1].decode()
        elif raw.startswith(b"\t") and sha:
            result[line] = (sha, _iso(when, zone))
    return result


def _iso(when: int, zone: str) -> str:
    sign = -1 if zone.startswith("-") else 1
    offset = timedelta(hours=int(zone[1:3] or 0), minutes=int(zone[3:5] or 0)) * sign
    return datetime.fromtimestamp(when, timezone(offset)).isoformat()


def moved_paths(path: str) -> tuple[str, ...]:
    """Where a file of the same import name may have lived before a move to or from a `src/` or `lib/` folder.

    Args:
        path: A file's path at the head.

    Returns:
        The other paths to try, in order (`src/_pytest/x.py` → `_pytest/x.py`; `acme/x.py` → `src/acme/x.py`).
    """
    for root in ("src/", "lib/"):
        if path.startswith(root):
            return (path.removeprefix(root),)
    return ("src/" + path,)


def _old_definitions(
    repo: HistoryRepository, pairs: set[tuple[str, str]], budget: _SourceBudget
) -> dict[tuple[str, str], dict[str, list[Symbol]]]:
    """The definitions of each (doc commit, file) whose blob differs from the head's, by qualified name.

    A file the doc commit holds under its name before a move to or from a `src/` layout
    (`_pytest/python_api.py`, now `src/_pytest/python_api.py`) is read there: the same module.
    """
    tried = {pair: [f"{pair[0]}:{path}" for path in (pair[1], *moved_paths(pair[1]))] for pair in pairs}
    heads = {path: f"{repo.head}:{path}" for _, path in pairs}
    ids = blob_ids(repo, [*(spec for specs in tried.values() for spec in specs), *heads.values()])
    specs = {pair: next((spec for spec in found if spec in ids), found[0]) for pair, found in tried.items()}
    changed = {
        pair: ids[spec]
        for pair, spec in specs.items()
        if spec in ids and ids.get(heads[pair[1]]) not in {None, ids[spec]}
    }
    contents = read_objects(repo, set(changed.values()))
    parsed: dict[str, dict[str, list[Symbol]]] = {}
    result = {}
    for pair, blob in sorted(changed.items()):
        if blob not in parsed and blob in contents:
            if not budget.spend(contents[blob]):
                budget.unread.add(pair)  # the budget is spent: this file is not compared
                continue
            by_name: dict[str, list[Symbol]] = defaultdict(list)
            for symbol in parse_symbols(pair[1], decode_source(contents[blob])):
                if symbol.name:
                    by_name[f"{symbol.parent}.{symbol.name}" if symbol.parent else symbol.name].append(symbol)
            parsed[blob] = by_name
        if blob in parsed:
            result[pair] = parsed[blob]
    return result


def _nearby_words(doc: DocLines | None, claim: Claim, names: set[str]) -> tuple[set[str], set[str]]:
    """The words the doc writes as code about a claim of a definition called `names` (its own name, and
    the doc's name for it when that is an alias): where a lost name would trip the reader.

    Only code counts, and only code about this claim: the code spans of the claim's own sentence,
    the claim's API directive (continued over lines), and in code samples near it (12 lines either
    way) the keywords its calls of `name` pass and the attributes it reads. Plain prose is left out
    (a parameter called `style` is also an English word), so are a neighbouring sentence's spans
    (about something else), keyword arguments of calls to other names (`print(text, style="bold")`
    says nothing about a `Syntax` that lost `style`) and a sample's own variables.

    Returns:
        (the words, the attributes samples read): an attribute read (`app.router`) uses a member,
        so it can make a lost member news, not a lost parameter of the same name.
    """
    if doc is None:
        return set(), set()
    lines = doc.text.split("\n")
    index = claim.line - doc.first_line
    if not 0 <= index < len(lines):
        return set(), set()
    first, last = index - _NEARBY_LINES, index + _NEARBY_LINES
    words: set[str] = set()
    reads: set[str] = set()
    for start, end, code, sample in doc_code(doc.text):
        if sample and start <= last and end >= first:
            words |= _sample_keywords(code, names)
            reads |= set(_ATTRIBUTE.findall(code))
    for span in _SPAN.findall(_claim_sentence(doc.text, lines, index, claim)):
        words |= _code_words(span, names)
    if (directive := _API_DIRECTIVE.match(lines[index])) is not None:
        signature = [directive.group(1)]
        for more in lines[index + 1 :]:
            if not signature[-1].rstrip().endswith("\\"):
                break
            signature.append(more)
        joined = " ".join(part.rstrip().rstrip("\\") for part in signature)
        words |= _code_words(_without_optional_marks(joined), names)
    return (
        {word for word in words if not _told_as_history(doc, first, last, word)},
        {word for word in reads if not _told_as_history(doc, first, last, word)},
    )


_RETURN_FIELD = re.compile(r"^\s*:(?:returns?|rtype)\b[^:]*:")


def names_a_return_type(doc: DocLines | None, claim: Claim) -> bool:
    """Whether the claim's line is a return field (`:return ClientResponse: a response object`, `:rtype:`).

    A class named as what a call returns is a promise about the value the reader gets, not about
    how to build one: the reader never calls its constructor from there, so a constructor that
    lost a parameter is no news to that line (a member the reader is told to use still is).

    Args:
        doc: The doc's text.
        claim: The claim.

    Returns:
        True for a claim on a reST return or return-type field.
    """
    if doc is None:
        return False
    lines = doc.text.split("\n")
    index = claim.line - doc.first_line
    return 0 <= index < len(lines) and _RETURN_FIELD.match(lines[index]) is not None


def claim_lines(doc: DocLines | None, claim: Claim) -> list[int]:
    """The 1-based doc lines a claim is written on: its own, and an API directive's continuation lines.

    `.. method:: add_static(prefix, path, *, \\` goes on over the lines its backslashes join; a
    parameter written on a later line was written when that line was, not the first.

    Args:
        doc: The doc's text.
        claim: The claim.

    Returns:
        The lines, the claim's own first.
    """
    lines = doc.text.split("\n") if doc is not None else []
    index = claim.line - (doc.first_line if doc is not None else 1)
    if not 0 <= index < len(lines) or _API_DIRECTIVE.match(lines[index]) is None:
        return [claim.line]
    found = [claim.line]
    while lines[index].rstrip().endswith("\\") and index + 1 < len(lines):
        index += 1
        found.append(found[-1] + 1)
    return found


def word_line(doc: DocLines | None, claim: Claim, lines: list[int], word: str) -> int:
    """The line of a claim's directive that writes a word (its first), else the claim's own line.

    Args:
        doc: The doc's text.
        claim: The claim.
        lines: The claim's lines (see claim_lines).
        word: A name the doc writes as code about the claim.

    Returns:
        A 1-based doc line.
    """
    if doc is None or len(lines) == 1:
        return claim.line
    text = doc.text.split("\n")
    pattern = re.compile(rf"(?<![\w$]){re.escape(word)}(?![\w$])")
    for line in lines:
        index = line - doc.first_line
        if 0 <= index < len(text) and pattern.search(text[index]):
            return line
    return claim.line


def _without_optional_marks(signature: str) -> str:
    """A directive's signature with Sphinx's optional-parameter brackets taken out.

    `pytest.fail(reason, [pytrace=True, msg=None])` lists `pytrace` and `msg` as parameters: a `[`
    where a parameter starts (after `(`, `,` or another such `[`) marks them optional, and it and
    its `]` go. A bracket after `=` is a default's list (`headers=[]`) and stays.
    """
    out: list[str] = []
    opened: list[bool] = []  # per open `[`: whether it marks optional parameters
    previous = ""
    for char in signature:
        if char == "[":
            optional = previous in {"(", ",", ""} or (previous == "[" and bool(opened) and opened[-1])
            opened.append(optional)
            out.append(" " if optional else char)
        elif char == "]" and opened:
            out.append(" " if opened.pop() else char)
        else:
            out.append(char)
        if not char.isspace():
            previous = char
    return "".join(out)


def _claim_sentence(text: str, lines: list[str], index: int, claim: Claim) -> str:
    """The sentence of the doc that holds the claim (its whole line when the name cannot be placed)."""
    line = lines[index]
    column = max(line.find(claim.ref), line.find(claim.target))
    if column < 0:
        return line
    offset = sum(len(before) + 1 for before in lines[:index]) + column
    return sentence_around(text, offset, offset + max(len(claim.ref), 1))


_FENCE = re.compile(r"^\s*(```|~~~)")
_SPAN = re.compile(r"``?([^`\n]+?)``?")
_API_DIRECTIVE = re.compile(r"^\s*\.\. (?:[a-z]+:)?(?:auto)?(?:function|method|class|attribute|data|decorator)::(.*)$")
_CODE_DIRECTIVE = re.compile(r"^\s*\.\. (?:code-block|code|sourcecode|doctest|testcode|ipython)::")


@lru_cache(maxsize=64)
def doc_code(text: str) -> tuple[tuple[int, int, str, bool], ...]:
    """The parts of a doc written as code, each as (first line, last line, text, is a sample), 0-based lines.

    A code sample is a fenced block (a row of tildes right under a line of text underlines a
    heading), or an indented block introduced by a line ending in `::` or by
    a code directive (the body of `.. note::` is prose), which ends at the first line indented no
    deeper than the line that opened it (a `::` inside a directive's body opens a sample of that
    body's deeper lines, not the rest of the body); its lines are joined so a call spanning lines
    stays one call. Lines of markup (`<pre style=…>`) are not code. Outside samples, code
    spans and API directive lines (`.. method:: connect(host)`) are code.

    Args:
        text: The doc's text.

    Returns:
        The code parts in doc order.
    """
    pieces: list[tuple[int, int, str, bool]] = []
    sample: list[tuple[int, str]] = []
    fenced = False
    introduced = False  # the last prose line opened an indented sample
    opening_indent = 0  # how deep that line was indented: the sample's lines are deeper

    def close() -> None:
        if sample:
            pieces.append((sample[0][0], sample[-1][0], "\n".join(t for _, t in sample), True))
            sample.clear()

    previous = ""
    for number, line in enumerate(text.split("\n")):
        stripped = line.strip()
        underline = not fenced and previous.strip() and set(stripped) == {"~"}  # a heading's, not a fence
        previous = line
        if _FENCE.match(line) and not underline:
            fenced = not fenced
            close()
            continue
        indented = len(line) - len(line.lstrip(" \t")) > opening_indent
        if fenced or (introduced and (indented or not stripped)) or stripped.startswith(">>>"):
            if stripped and not stripped.startswith("<"):
                sample.append((number, line))
            continue
        if not stripped:
            continue
        close()
        literal = stripped.endswith("::") and not stripped.startswith("..")  # `.. note::` opens prose
        introduced = literal or _CODE_DIRECTIVE.match(line) is not None
        opening_indent = len(line) - len(line.lstrip(" \t"))
        pieces.extend((number, number, span, False) for span in _SPAN.findall(line))
        if (directive := _API_DIRECTIVE.match(line)) is not None:
            pieces.append((number, number, directive.group(1), False))
    close()
    return tuple(pieces)


_CALL = re.compile(r"([A-Za-z_$][\w$]*)\s*\(")
_KEYWORD = re.compile(r"([A-Za-z_$][\w$]*)\s*=(?!=)")


def _sample_keywords(code: str, names: set[str]) -> set[str]:
    """The keywords a code sample's calls of a definition (by one of `names`) pass.

    A sample's other identifiers are its own variables (`app = Flask()`, `app.AsyncResult(id)`),
    whatever parameters they share a name with; the attributes it reads are members' uses.
    """
    return {
        m.group(1)
        for call in _CALL.finditer(code)
        if call.group(1) in names
        for m in _KEYWORD.finditer(top_level(code, call.end()))
    }


_ATTRIBUTE = re.compile(r"\.([A-Za-z_$][\w$]*)")


def _told_as_history(doc: DocLines, first: int, last: int, word: str) -> bool:
    """Whether a sentence near the claim that names the word tells its history ("no longer", "was removed")."""
    lines = doc.text.split("\n")
    start = sum(len(line) + 1 for line in lines[: max(0, first)])
    window = "\n".join(lines[max(0, first) : last + 1])
    return any(
        tells_history(sentence_around(doc.text, start + m.start(), start + m.end()))
        for m in re.finditer(rf"(?<![\w$]){re.escape(word)}(?![\w$])", window)
    )


def _code_words(code: str, names: set[str]) -> set[str]:
    """The identifiers of a code span or directive outside calls, and inside calls of one of `names` only.

    `connect(host, retries)` names connect's parameters; in `add_route(method, path)` near a claim
    of `resolve`, `path` is add_route's, not resolve's.
    """
    own: set[str] = set()
    for call in _CALL.finditer(code):
        if call.group(1) in names:
            own |= set(re.findall(r"[A-Za-z_$][\w$]*", top_level(code, call.end())))
    return _outside_calls(code) | own


def _outside_calls(code: str) -> set[str]:
    """Identifiers of a code text outside every call's argument list (`x = 1`, `Class.attr`)."""
    depth = 0
    out = []
    for index, char in enumerate(code):
        if char == "(" and index > 0 and (code[index - 1].isalnum() or code[index - 1] in "_$ "):
            depth += 1
        elif char == ")" and depth:
            depth -= 1
        out.append(char if depth == 0 else " ")
    return set(re.findall(r"[A-Za-z_$][\w$]*", "".join(out)))


def _lost(  # noqa: PLR0917 - one definition's old and new forms, and the doc's words
    qualified: str,
    symbol_type: str,
    path: str,
    old: dict[str, list[Symbol]],
    facts: CodeFacts,
    nearby: set[str],
    *,
    reads: set[str],
    head: _HeadCode,
    old_name: str | None = None,
    constructs: bool = True,
    parameters_only: bool = False,
) -> tuple[str, tuple[str, ...], str] | None:
    """What the definition lost that the doc's nearby text uses: (what, names, the definition's name).

    `old_name` is what the definition was called in the old file, when the doc's name was then
    bound to another one (an alias that moved: `attr.s` from `_add_methods` to `attributes`).
    `constructs` is False where the doc names a class only as what something returns: then its
    constructor's parameters are not the doc's business, its members are. `parameters_only` is True
    for a parameter field (`:param x:`): it documents a parameter, so only a lost parameter counts.
    """
    before_name = old_name or qualified
    if symbol_type in _CLASSES and not constructs:
        return _lost_members(qualified, path, old, facts, nearby | reads, before_name)
    if symbol_type in _CLASSES:
        for constructor in _CONSTRUCTORS:
            key = f"{qualified}.{constructor}"
            old_key = f"{before_name}.{constructor}"
            if old_key in old and (path, key) in facts.signatures:
                now = _Forms(facts.signatures[(path, key)], constructor, functools.partial(head.accepted, path, key))
                lost = _lost_parameters(old[old_key], constructor, now, nearby)
                if lost:
                    return "parameter", lost, key
        return None if parameters_only else _lost_members(qualified, path, old, facts, nearby | reads, before_name)
    before = old.get(before_name, [])
    signatures = facts.signatures.get((path, qualified))
    if not before or signatures is None:
        return None
    now = _Forms(signatures, qualified.rsplit(".", 1)[-1], functools.partial(head.accepted, path, qualified))
    lost = _lost_parameters(before, before_name.rsplit(".", 1)[-1], now, nearby)
    return ("parameter", lost, qualified) if lost else None


@dataclass(frozen=True)
class _Forms:
    """A definition's declarations at the head, and (read only when needed) the keywords it takes."""

    signatures: tuple[str, ...]
    name: str
    accepted: Callable[[], frozenset[str] | None]
    """Named parameters and what its `**` catch-all takes (see keyword_forwarding); None: anything."""


def _lost_parameters(before: list[Symbol], old_name: str, now: _Forms, nearby: set[str]) -> tuple[str, ...]:
    """Parameters of any old form (overloads, getter and setter) that no form at the head takes.

    An old form's parameters include the keys its body read out of its `**kwargs`
    (`kwargs.pop("message")`). A head that takes `**kwargs` still takes a dropped parameter when
    its body passes the dictionary where it is not known what is taken (another library's call, a
    stored dictionary); it does not when the body reads only other keys or passes it to one of our
    definitions that lacks the parameter too (`ClientSession(**kwargs)` without `scheme`).
    """
    old_forms = [parameter_names(symbol.signature, old_name) for symbol in before]
    new_forms = [parameter_names(signature, now.name) for signature in now.signatures]
    if any(form is None for form in old_forms + new_forms):
        return ()
    old_names = dict.fromkeys(p for form in old_forms if form for p in form)
    for symbol in before:
        old_names.update(dict.fromkeys(sorted(keyword_reads([symbol.signature], old_name, symbol.source))))
    new_names = {p for form in new_forms if form for p in form}
    lost = tuple(p for p in old_names if p not in new_names and p in nearby and len(p) > 1)
    if lost and any(takes_any_keyword(signature, now.name) for signature in now.signatures):
        # `**kwargs` (or `**options: Unpack[Options]`) may still take what the list dropped.
        accepted = now.accepted()
        return () if accepted is None else tuple(p for p in lost if p not in accepted)
    return lost


class _HeadCode:
    """The head's definitions with their bodies, parsed on demand: only where a `**kwargs` must be read."""

    def __init__(self, repo: HistoryRepository, facts: CodeFacts, budget: _SourceBudget) -> None:
        self._repo = repo
        self._facts = facts
        self._budget = budget
        self._parsed: dict[str, dict[str, list[Symbol]]] = {}

    def accepted(self, path: str, qualified: str) -> frozenset[str] | None:
        """The keywords the head's definition takes, or None when it may take any (or its file is past the budget)."""
        callee = self._definition(path, qualified)
        if callee is None:
            return None
        return accepted_keywords(
            callee.signatures, callee.name, callee.body, lambda written: self._callee(path, qualified, written)
        )

    def _definitions(self, path: str) -> dict[str, list[Symbol]]:
        if path not in self._parsed:
            text = _texts(self._repo, {(self._repo.head, path)}).get((self._repo.head, path), "")
            by_name: dict[str, list[Symbol]] = defaultdict(list)
            # Past the budget the file reads as empty: its `**kwargs` may take anything, as when unread.
            readable = self._budget.spend(text.encode())
            for symbol in parse_symbols(path, text if readable else ""):
                if symbol.name:
                    by_name[f"{symbol.parent}.{symbol.name}" if symbol.parent else symbol.name].append(symbol)
            self._parsed[path] = by_name
        return self._parsed[path]

    def _definition(self, path: str, qualified: str) -> Callee | None:
        forms = self._definitions(path).get(qualified)
        if not forms:
            return None
        body = max((symbol.source for symbol in forms), key=len)  # an overload's stub has no body
        return Callee(tuple(symbol.signature for symbol in forms), qualified.rsplit(".", 1)[-1], body)

    def _callee(self, path: str, qualified: str, written: str) -> Callee | None:
        """One of our definitions a call written in `qualified`'s body reaches, or None when not known."""
        owner = qualified.rpartition(".")[0]
        member = written.partition(".")[2]
        if written.startswith(("self.", "cls.")) and owner and "." not in member:
            return self._definition(path, f"{owner}.{member}")
        if written.startswith("super().") and owner and "." not in member:
            for base in self._facts.class_bases.get(owner.rsplit(".", 1)[-1], ()):
                site = self._class(base)
                if site is not None:
                    return self._definition(site.path, f"{base}.{member}")
            return None
        if "." in written:
            return None
        site = self._class(written)
        if site is not None:
            return self._definition(site.path, f"{written}.__init__")
        functions = [
            s
            for s in self._facts.symbols.get(written, ())
            if s.qualified == written and s.symbol_type == "function" and not is_sample_path(s.path)
        ]
        return self._definition(functions[0].path, written) if len(functions) == 1 else None

    def _class(self, name: str) -> SymbolSite | None:
        sites = [
            s for s in self._facts.symbols.get(name, ()) if s.symbol_type in _CLASSES and not is_sample_path(s.path)
        ]
        return sites[0] if len(sites) == 1 else None


def _lost_members(  # noqa: PLR0917 - one class's old and new forms, and the doc's words
    qualified: str, path: str, old: dict[str, list[Symbol]], facts: CodeFacts, nearby: set[str], before_name: str
) -> tuple[str, tuple[str, ...], str] | None:
    old_forms = old.get(before_name)
    if not old_forms:
        return None
    old_class = old_forms[0]
    prefix = before_name + "."
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
    """(lost name, file) → (sha, day, subject) of the commit that dropped it, in one log pass.

    The dropping commit is the newest after the doc whose diff of the file removes the name in the
    form it was lost in and adds none in that form: a parameter where a parameter slot starts
    (`(name`, `, name:`, a signature line `name=None,`; not `theme.name`, not `x = name`), a member
    its `def`, assignment or field line. A word merely removed from other lines names nothing.
    """
    oldest = min(losses, key=lambda loss: loss.doc_day).doc_commit
    forms = {(name, loss.what) for loss in losses for name in loss.names}
    paths = {loss.path for loss in losses}
    log = diffs_naming(repo, {name for name, _ in forms}, paths, f"{oldest}..{repo.head}")[:max_bytes]
    found: dict[tuple[str, str], tuple[str, str, str]] = {}
    patterns = {(name, what): lost_form(name, what) for name, what in forms}
    for commit, path, removed, added in commit_file_diffs(log.decode("utf-8", "replace")):
        for (name, _what), form in patterns.items():
            if drops(form, removed, added):
                # Newest first, and the newest drop wins: the one after which the name never came
                # back (an older drop may be another definition's in the same file).
                found.setdefault((name, path), (commit.sha, commit.day, commit.subject))
    return found


def _describe(loss: _Loss, commits: dict[tuple[str, str], tuple[str, str, str]]) -> str | None:
    """The evidence: what the definition lost, on which day, by which commit; None when no commit after the line did it.

    A loss whose dropping commit is not strictly later than the doc line's commit is no news (the
    line was written knowing the change, often in the same commit), and one no commit can be named
    for is a parse quirk: neither is an alarm.
    """
    plural = "s" if len(loss.names) > 1 else ""
    what = f"{loss.qualified} lost {loss.what}{plural} {', '.join(loss.names)}"
    found = commits.get((loss.names[0], loss.path))
    if found is None or not _later(found[1], loss.doc_day):
        return None
    doc_day = calendar_day(loss.doc_day) or "an unknown day"
    commit = f"commit {found[0][:7]} '{found[2][:100]}'"
    via = f"; the doc's name is bound to it: {loss.route}" if loss.route else ""
    return f"{what} on {calendar_day(found[1])}, {commit} (doc line last changed {doc_day}){via}"


def _later(when: str, than: str) -> bool:
    try:
        return datetime.fromisoformat(when) > datetime.fromisoformat(than)
    except ValueError:
        return False
