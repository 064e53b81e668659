"""Names the head lacks, judged by the repository's own history: removed (contradicted) or never ours.

A doc naming something this repository's code defined earlier and has since removed is the drift
that matters most, and the history says so with evidence: where it was defined, the commit that
removed it, and what replaced it. A name the code's history never defined is not evidence against
the doc (another project's name, an example of the doc's own), so it is not contradicted.

The replacement is a definition the removing commit added whose name is close to the removed one
(`SyncSession` → `Session`), else the nearest name among today's symbols; none when nothing is close.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from collections import defaultdict
from collections.abc import Collection

from sextant.doc_claims.claims.claim import Claim
from sextant.doc_claims.judging.checking import Resolution
from sextant.doc_claims.judging.code_facts import CodeFacts
from sextant.doc_claims.syntax.code_blocks import is_standard_library
from sextant.doc_rules import calendar_day
from sextant.gitsource.history_definitions import DefinitionSearch, PastDefinition, is_test_or_sample

_CLASS_DEFINITION = re.compile(r"^(?:export\s+)?(?:default\s+)?(?:abstract\s+)?(?:class|type|struct|interface)\s")
_LOOKED_UP = frozenset({"symbol", "env", "config_key"})
_CLOSE_TO_ADDED = 0.5
_CLOSE_TO_CURRENT = 0.85
_MAX_NEAREST_POOL = 50_000
NEAR_NAME_RATIO = 0.8
"""How alike (difflib ratio) a never-defined name must be to a current symbol to count as a slip."""


def absent_names(judged: list[tuple[Claim, Resolution]]) -> set[str]:
    """The names worth a history look-up: absent symbols the doc named (resolved or not firmly).

    Args:
        judged: Claims with their resolutions at the head.

    Returns:
        Simple names.
    """
    return {
        resolution.absent_name
        for claim, resolution in judged
        if resolution.absent_name and claim.kind in _LOOKED_UP and resolution.status != "verified"
    }


def mentioned_names(judged: list[tuple[Claim, Resolution]]) -> dict[str, set[str]]:
    """The names of symbol claims verified by a mere mention: history may show their definition removed.

    Args:
        judged: Claims with their resolutions at the head.

    Returns:
        Simple name → the qualifiers the docs wrote right before it (`debug` of `debug.filters()`).
    """
    names: dict[str, set[str]] = defaultdict(set)
    for claim, resolution in judged:
        if resolution.mentioned_name and claim.kind == "symbol" and resolution.status == "verified":
            qualifier = _qualifier(claim.target)
            names[resolution.mentioned_name].update({qualifier} if qualifier else set())
    return dict(names)


def _qualifier(target: str) -> str | None:
    """The part of a dotted name right before its last (`pluginmanager` of `config.pluginmanager.get_plugin`)."""
    parts = target.lstrip("~!.").split(".")
    return parts[-2] if len(parts) > 1 else None


def revise_with_past_names(
    judged: list[tuple[Claim, Resolution]], facts: CodeFacts, search: DefinitionSearch
) -> list[tuple[Claim, Resolution]]:
    """Turn absent names into contradictions with evidence when the code once defined them.

    Args:
        judged: Claims with their resolutions at the head.
        facts: The head's code facts (for replacements).
        search: The history look-up of absent_names(judged).

    Returns:
        The claims with revised resolutions, in the same order.
    """
    revised = []
    starts = _NamesByStart(facts)
    for claim, resolution in judged:
        name = resolution.absent_name
        if not name or claim.kind not in _LOOKED_UP or resolution.status == "verified" or name not in search.searched:
            revised.append((claim, _revised_mention(claim, resolution, search, facts, starts)))
            continue
        past = _its_past(claim, resolution, search.found.get(name), facts)
        if past is not None:
            revised.append((claim, _removed(resolution, past, facts)))
        elif resolution.status == "contradicted" and (resolution.absent_scope or resolution.absent_in_class):
            # `acme.session.Name`, `Session.close`: the doc is firm that our module or class holds it.
            revised.append((claim, resolution))
        elif (
            claim.kind == "symbol" and resolution.status == "contradicted" and (near := near_name(name, facts, starts))
        ):
            # Never defined, but one letter or word away from one of ours: a slip of the doc's.
            history = "absent at the head" if nothing_searched(search) else "never defined in this repository's history"
            evidence = f"{resolution.evidence}; {history}; did you mean {near}?"
            revised.append((claim, dataclasses.replace(resolution, evidence=evidence, replacement=near)))
        elif search.note is None and resolution.status == "contradicted":
            evidence = (
                f"{resolution.evidence}; no past definition of {name} in this repository's history "
                f"({search.trees} past trees searched" + (f"; {search.between_note})" if search.between_note else ")")
            )
            revised.append(
                (
                    claim,
                    _with_suggestion(
                        dataclasses.replace(resolution, status="unverifiable", evidence=evidence), name, claim, starts
                    ),
                )
            )
        elif search.note is not None:
            revised.append((claim, with_note(resolution, search)))
        else:
            revised.append((claim, _with_suggestion(_with_between_note(resolution, search), name, claim, starts)))
    return revised


def _its_past(  # noqa: PLR0911 - one exit per reason a past definition is not the doc's
    claim: Claim, resolution: Resolution, past: PastDefinition | None, facts: CodeFacts
) -> PastDefinition | None:
    """The past definition the history found for an absent name, when it can be what the doc names."""
    name = resolution.absent_name or ""
    if past is None or is_maintainer_script(past.path):
        return None  # never the library's API
    if resolution.absent_scope and not _in_scope(past.path, resolution.absent_scope, facts):
        return None  # defined once, but elsewhere than the module the doc names
    if not _under_first_part(claim.target, past.path, facts):
        return None  # `django.contrib.sites.models.Site` is not the `Site` a vendored project had
    if past.removed_by is None:
        return None  # no commit after it drops the definition: it may still be there in another form
    if not past.defined and not declares_parameter(past.text, name):
        return None  # only ever named (a call's keyword, a settings key, a word in a comment): not ours to lose
    if resolution.absent_is_class and not _CLASS_DEFINITION.match(past.text):
        return None  # the doc uses it as a class; what the code once had by that name was not one
    return past


def _with_between_note(resolution: Resolution, search: DefinitionSearch) -> Resolution:
    """The samples were all searched, the commits between them not all: the evidence says how far they were."""
    if search.between_note is None:
        return resolution
    return dataclasses.replace(resolution, evidence=f"{resolution.evidence} ({search.between_note})")


def nothing_searched(search: DefinitionSearch) -> bool:
    """Whether the look-up could not search history at all (no repository, a blob-less one, no budget).

    Args:
        search: The history look-up.

    Returns:
        True when no past tree was searched and the note says why.
    """
    return search.trees == 0 and search.note is not None


def with_note(resolution: Resolution, search: DefinitionSearch) -> Resolution:
    """A name history did not find, when the look-up was skipped or cut short: the note says so.

    A bare name contradicted by its wording becomes unverifiable: without history, or with only part
    of it read, an absent name is as likely another project's, a placeholder or a meta-variable as a
    removed one of ours (a whole search that finds no past definition says the same, so a search
    cut short must not say more: pytest's head, whose removal pass outgrows its output budget, had
    its doc samples' `src.utils.pages.LoginPage` contradicted). What the doc is firm about (a member
    of one of our modules or classes, a slip of one of our names, a path: the tree is read even
    blob-less) is decided before this.

    Args:
        resolution: The name's resolution at the head.
        search: The look-up, whose note says why it was skipped or cut short.

    Returns:
        The resolution with the note in its evidence (unverifiable when the wording contradicted it).
    """
    if resolution.status == "contradicted":
        where = "absent at the head" if nothing_searched(search) else "absent at the head and in the history read"
        evidence = f"{resolution.evidence}; {where}; {search.note}"
        return dataclasses.replace(resolution, status="unverifiable", evidence=evidence)
    return dataclasses.replace(resolution, evidence=f"{resolution.evidence} ({search.note})")


def _revised_mention(
    claim: Claim, resolution: Resolution, search: DefinitionSearch, facts: CodeFacts, starts: _NamesByStart
) -> Resolution:
    """A claim verified by a mere mention, contradicted when its own symbol was removed (else as it was)."""
    name = resolution.mentioned_name
    if not name or resolution.status != "verified" or not _root_is_ours(claim.target, facts):
        return resolution
    removed = _removed_symbol(name, _qualifier(claim.target), search, facts, starts)
    if removed is None:
        return resolution
    # The head only names it; the symbol the doc means was removed from the file that defined it.
    contradicted = _removed(resolution, removed, facts)
    return dataclasses.replace(
        contradicted, evidence=f"{contradicted.evidence}; at the head only {resolution.evidence}"
    )


def _removed_symbol(
    name: str, qualifier: str | None, search: DefinitionSearch, facts: CodeFacts, starts: _NamesByStart
) -> PastDefinition | None:
    """The newest removal of a symbol definition of a name the head's code only mentions, or None.

    A name the head has no symbol of, whose function, class or method the history shows removed from
    its file (not moved: a move is followed to the file it went to), is a removed name even though
    the head's code still says the word (a local `stack = []`, a dict key, a comment). Not when the
    file it was removed from still binds the name at the head (it became an attribute or a constant
    there), nor when one of the head's functions takes a parameter of that name: the doc may mean it.
    """
    if name in _ENTRY_POINTS or name in starts.parameters() or (name[:1].isupper() and _library_uses(name, facts)):
        return None
    bindings = facts.file_bindings
    return next(
        (
            past
            for past in search.removed_symbols.get(name, ())
            if name not in bindings.get(past.path, frozenset())
            and not is_maintainer_script(past.path)
            and not _took_a_foreign_import(past, facts)
            # `debug.filters()`: the file the method left must have named `debug` (its holder), or the
            # doc's qualifier is some other thing that happens to share the method's name.
            and (qualifier is None or qualifier in search.file_words.get((name, past.path), frozenset()))
        ),
        None,
    )


_ENTRY_POINTS = frozenset({"main", "__main__", "__init__"})
"""Names every program has (the reader's `main()`), whatever this repository once defined by them."""


def _took_a_foreign_import(past: PastDefinition, facts: CodeFacts) -> bool:
    """Whether the commit that removed it made its file import another project (whose base may supply it;
    the standard library's modules are everyone's)."""
    ours = facts.packages | {module.split(".", 1)[0] for module in facts.import_modules}
    return any(root not in ours and not is_standard_library(root) for root in past.imported_by_removal)


def _library_uses(name: str, facts: CodeFacts) -> bool:
    """Whether the head's own library code (not tests or samples) names it: a class it raises or calls
    is one it relies on, imported from elsewhere or defined in a way the facts do not read."""
    return any(name in tokens for path, tokens in facts.file_tokens.items() if not is_test_or_sample(path))


def _root_is_ours(target: str, facts: CodeFacts) -> bool:
    """Whether a dotted name starts at one of our packages, modules or symbols (a bare name always does)."""
    if "." not in target:
        return True
    root = target.lstrip("~!.").split(".", 1)[0]
    return root in facts.packages or root in facts.modules or root in facts.symbols


_PARAMETER_WORD = re.compile(r"[A-Za-z_$][\w$]*")


class _NamesByStart:
    """Today's symbols and identifiers grouped by their first two letters, built once per revision when needed."""

    def __init__(self, facts: CodeFacts) -> None:
        self._facts = facts
        self._groups: dict[bool, dict[str, list[str]]] = {}
        self._symbols_by_start: dict[str, list[str]] | None = None
        self._parameters: frozenset[str] | None = None

    def parameters(self) -> frozenset[str]:
        """Every word inside the parentheses of the head's declaration lines (its parameters, and more)."""
        if self._parameters is None:
            self._parameters = frozenset(
                word
                for lines in self._facts.signatures.values()
                for line in lines
                if "(" in line
                for word in _PARAMETER_WORD.findall(line.split("(", 1)[1])
            )
        return self._parameters

    def starting(self, name: str, *, keys: bool) -> list[str]:
        """The own names (identifiers for keys, else symbols) that start with the name's first two letters."""
        if keys not in self._groups:
            groups: dict[str, list[str]] = defaultdict(list)
            for own in self._facts.identifiers if keys else self._facts.symbols:
                groups[own[:2]].append(own)
            self._groups[keys] = groups
        return self._groups[keys].get(name[:2], [])

    def symbols_starting(self, name: str) -> list[str]:
        """Today's symbols that start with the name's first two letters, in any case, in the facts' order."""
        if self._symbols_by_start is None:
            groups: dict[str, list[str]] = defaultdict(list)
            for own in self._facts.symbols:
                groups[own[:2].lower()].append(own)
            self._symbols_by_start = groups
        return self._symbols_by_start.get(name[:2].lower(), [])


def _with_suggestion(resolution: Resolution, name: str, claim: Claim, starts: _NamesByStart) -> Resolution:
    """An unverifiable name the history never had, with the own names it is likely a slip of, if any."""
    if resolution.status != "unverifiable":
        return resolution
    meant = likely_meant(name, starts.starting(name, keys=claim.kind == "config_key"))
    if not meant:
        return resolution
    return dataclasses.replace(
        resolution,
        evidence=f"{resolution.evidence}; did you mean {' or '.join(meant)}?",
        replacement=meant[0] if len(meant) == 1 else None,
    )


_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_ENDING_SLIP = 4
"""Letters a name's last word may differ by at its end and still be a slip (`counter` for `count`)."""
_MAX_MEANT = 3
_MIN_LEFT = 4


def likely_meant(name: str, names: Collection[str]) -> list[str]:
    """The own names a name the code never had is one word or one ending away from (at most three).

    Names are compared word by word (snake_case and camelCase split), among own names that start
    with the same two letters, case kept (`COUNT` is not a slip of `counter`).

    A doc that writes `FileType` where the code has `File`, `static_url` for `static_url_path`,
    `SetEnvReplacer` for `SetEnvKeyReplacer`, `autocomplete` for `autocompletion` or `counter` for
    `count` names one of ours with a word too many or too few, or another ending. That is no evidence
    that the doc went stale (the code never changed), so it is only a suggestion on an unverifiable
    finding, never an alarm.

    Args:
        name: A name the code's history never had.
        names: Today's own names of the claim's kind (symbols, or identifiers for keys).

    Returns:
        The fitting own names, sorted; empty when none fits or more than three do.
    """
    words = _words(name)
    if not words:
        return []
    start = name[:2]
    fits = sorted(
        other for other in names if other != name and other[:2] == start and _one_edit_away(words, _words(other))
    )
    return fits if len(fits) <= _MAX_MEANT else []


@functools.cache
def _words(name: str) -> tuple[str, ...]:
    return tuple(word.lower() for part in re.split(r"[_\W]+", name) for word in _WORD.findall(part))


def _one_edit_away(words: tuple[str, ...], other: tuple[str, ...]) -> bool:
    """One word inserted or dropped, or the last word's ending changed by a few letters."""
    if words == other or not other:
        return False
    if abs(len(words) - len(other)) == 1:
        longer, shorter = (words, other) if len(words) > len(other) else (other, words)
        # What is left must still say something: `log_levels` is no slip of `log`.
        return len("".join(shorter)) >= _MIN_LEFT and any(
            longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer))
        )
    if len(words) != len(other) or words[:-1] != other[:-1]:
        return False
    last, theirs = words[-1], other[-1]
    common = next(
        (i for i, (a, b) in enumerate(zip(last, theirs, strict=False)) if a != b), min(len(last), len(theirs))
    )
    return common >= 4 and max(len(last), len(theirs)) - common <= _ENDING_SLIP


_HEADER_PARAMETERS = re.compile(r"^\s*(?:export\s+)?(?:async\s+)?(?:def|function|func)\b[^(]*\((.*)")


def declares_parameter(line: str, name: str) -> bool:
    """Whether a code line is a function header that declares `name` as a parameter.

    A parameter of one of the repository's functions is part of its API (`def configure(convert_filters=…)`),
    while the same word as a call's keyword (`Rule(build_only=True)`), a settings key or a word of a
    comment is only a use of someone's name.

    Args:
        line: One line of code (a `def`, `function` or `func` header, or anything else).
        name: A simple identifier.

    Returns:
        True when the line opens a definition whose parameter list holds the name.
    """
    header = _HEADER_PARAMETERS.match(line)
    if header is None:
        return False
    pattern = rf"(?:^|[(,])\s*\*{{0,2}}{re.escape(name)}\s*(?:[:=,)?]|$|\s+[A-Za-z*\[])"
    return re.search(pattern, header.group(1)) is not None


_MAINTAINER_FOLDERS = frozenset({"scripts", "script", "tools", "tooling", "ci", ".github", ".circleci"})


def is_maintainer_script(path: str) -> bool:
    """Whether a file is the maintainers' tooling (release, CI, housekeeping scripts), not the library.

    A doc's `login` fixture, sharing its name with a helper a release script once had
    (`scripts/prepare-release-pr.py`), is no removed name of the API: what such folders define is
    not what docs describe.

    Args:
        path: A repository path.

    Returns:
        True for files under scripts/, tools/, ci/ and the CI services' folders.
    """
    return bool(set(path.lower().split("/")[:-1]) & _MAINTAINER_FOLDERS)


def _under_first_part(target: str, path: str, facts: CodeFacts) -> bool:
    """Whether a past Python definition can be what a dotted name names: a first part in lower case
    that is neither one of our import roots nor one of today's objects must be a folder or module on
    the definition's path (a capitalised one is a class, maybe the removed one: `SyncSession.refresh`;
    Go and JavaScript folders need not carry a package's name)."""
    parts = target.lstrip("~!.").split(".")
    first = parts[0]
    if len(parts) < 2 or not first[:1].islower() or not path.endswith((".py", ".pyi")):
        return True
    if any(site.symbol_type != "module" for site in facts.symbols.get(first, ())):
        return True  # one of today's objects (`app.config`), not a module that names another package
    if first in {module.split(".", 1)[0] for module in facts.import_modules}:
        return True  # one of our import roots (`pytest`, whose definitions live in `_pytest/`)
    folders = path.split("/")
    return first in folders[:-1] or folders[-1].rsplit(".", 1)[0] == first


def _in_scope(path: str, scope: str, facts: CodeFacts) -> bool:
    """Whether a file was in the module or Go package the doc qualified a name with (`cli` of
    `cli.AppHelpTemplate`: a Go file in one of the folders that package's files are in today)."""
    if path.endswith(".go") and scope in facts.go_package_folders:
        return path.rpartition("/")[0] in facts.go_package_folders[scope]
    return in_module(path, scope)


def in_module(path: str, module: str) -> bool:
    """Whether a file is (or is inside) a dotted module, wherever its import root lies.

    Args:
        path: A repository path (`src/acme/session.py`).
        module: A dotted module name (`acme.session`).

    Returns:
        True for `…/acme/session.py`, `…/acme/session/__init__.py` and files under `…/acme/session/`.
    """
    folder = module.replace(".", "/")
    padded = "/" + path
    return padded.endswith((f"/{folder}.py", f"/{folder}/__init__.py")) or f"/{folder}/" in padded


def _removed(resolution: Resolution, past: PastDefinition, facts: CodeFacts) -> Resolution:
    replacement = replacement_for(past.name, past.added_by_removal, facts)
    if past.removed_by is not None:
        day = calendar_day(past.removed_by.day) or "an unknown day"
        verb = "defined" if past.defined else "named"
        evidence = (
            f"{verb} in {past.path} until {day}; removed by {past.removed_by.sha[:7]} '{past.removed_by.subject[:100]}'"
        )
        removed_by = f"{past.removed_by.sha[:7]} {past.removed_by.subject[:100]}"
    else:
        day = None
        seen = calendar_day(past.seen_at.day) or "an unknown day"
        evidence = f"defined in {past.path} as late as {seen} ({past.seen_at.sha[:7]}); gone from the head"
        removed_by = None
    if replacement:
        evidence += f"; now {replacement}"
    return dataclasses.replace(
        resolution,
        status="contradicted",
        evidence=evidence,
        removed_by=removed_by,
        removed_at=day,
        replacement=replacement,
    )


def near_name(name: str, facts: CodeFacts, starts: _NamesByStart | None = None) -> str | None:
    """Today's symbol a name is a slip of (`resolveFixurePath` → `resolveFixturePath`), or None.

    Args:
        name: A name the code never defined.
        facts: The head's code facts.
        starts: The facts' symbols grouped by their first letters, when the caller asks for many names.

    Returns:
        The closest current symbol at least NEAR_NAME_RATIO alike, or None.
    """
    # A slip keeps the name's start: comparing only names that share its first two letters keeps the
    # cost small on repositories with tens of thousands of symbols.
    candidates = (starts or _NamesByStart(facts)).symbols_starting(name)
    pool = [s for s in candidates if abs(len(s) - len(name)) <= 8]
    if len(pool) > _MAX_NEAREST_POOL:
        return None
    close = difflib.get_close_matches(name, pool, n=1, cutoff=NEAR_NAME_RATIO)
    if not close or _same_word(close[0], name):
        return None  # `parseCallback` beside `ParseCallback`: a parameter named after its type, not a slip
    return close[0]


def _same_shape(a: str, b: str) -> bool:
    """Whether two names both start with a capital, or both do not (a class is replaced by a class)."""
    return a[:1].isupper() == b[:1].isupper()


def _same_word(a: str, b: str) -> bool:
    """Whether two names are one word in another case or number (`parseCallback`, `ParseCallback`;
    `header`, `Headers`). A name of three words or more that differs only in a plural ending, in the
    same case, is a slip (`revoke_by_stamped_header` for `revoke_by_stamped_headers`)."""
    if a.lower() == b.lower():
        return True
    plural_only = a.lower().rstrip("s") == b.lower().rstrip("s")
    return plural_only and (len(_WORD.findall(a)) < _PLURAL_SLIP_WORDS or not _same_shape(a, b))


_PLURAL_SLIP_WORDS = 3
"""Words a name needs for a plural-only difference to be a slip: yargs' docs call the completions a
callback receives `defaultCompletions` beside the method `defaultCompletion` (a variable named
after the function), while `revoke_by_stamped_header` names the command itself."""


def replacement_for(name: str, added: tuple[str, ...], facts: CodeFacts) -> str | None:
    """What replaced a removed name: a close definition its removing commit added, or the nearest current symbol.

    A replacement keeps the removed name's shape: a class's (`PlainRoute`) is a capitalised name, a
    function's or an attribute's (`apply_filters`) is not, so `router` or `Filter`, added by the same
    commit and alike in letters, replace nothing.

    Args:
        name: The removed name.
        added: Names the removing commit defined.
        facts: The head's code facts (a replacement must still exist).

    Returns:
        The replacement's name, or None.
    """
    alive = [a for a in added if a in facts.symbols and a != name and _same_shape(a, name)]
    close = difflib.get_close_matches(name, alive, n=1, cutoff=_CLOSE_TO_ADDED)
    if close:
        return close[0]
    pool = [s for s in facts.symbols if abs(len(s) - len(name)) <= 4 and s[:1] == name[:1]]
    if len(pool) > _MAX_NEAREST_POOL:
        return None
    nearest = difflib.get_close_matches(name, pool, n=1, cutoff=_CLOSE_TO_CURRENT)
    return nearest[0] if nearest else None
