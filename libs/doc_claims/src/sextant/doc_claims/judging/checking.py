"""Check doc claims against the facts of the indexed code: verified, contradicted, outdated, unverifiable.

Precedence: a claim is first resolved (verified, contradicted or unverifiable). Only a verified claim
can become outdated, when the doc's last commit is more than STALE_DOC_GAP older than that of the
file the claim resolved to; a contradicted claim stays contradicted (the thing is gone, which is the
stronger news), and an unverifiable one stays unverifiable. Claims from changelogs and release notes
(see history_docs) produce no findings at all.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, Protocol

from sextant.doc_claims.claims import name_shapes as shapes
from sextant.doc_claims.claims.claim import Claim
from sextant.doc_claims.claims.history_docs import is_history_doc
from sextant.doc_claims.claims.known_names import (
    LANGUAGE_CLASSES,
    THIRD_PARTY_ENV_NAMES,
    THIRD_PARTY_ENV_PREFIXES,
    WELL_KNOWN_FILES,
)
from sextant.doc_claims.judging.code_facts import CodeFacts, Site, SymbolSite
from sextant.doc_claims.judging.composed_names import composed_name
from sextant.doc_claims.judging.documented_parameters import parameter_not_taken
from sextant.doc_claims.judging.finding import ClaimFinding, ClaimStatus
from sextant.doc_claims.judging.flag_evidence import (
    FRAMEWORK_FLAGS,
    declared_flag,
    derived_names,
    is_go_program,
    run_script,
    script_flag,
    task_parameter,
)
from sextant.doc_claims.judging.foreign_names import foreign_reason
from sextant.doc_claims.judging.index_coverage import has_no_extension, index_can_hold, unindexed_hidden_folder
from sextant.doc_claims.judging.lazy_members import lazy_member_reason
from sextant.doc_claims.judging.qualified_names import resolve_qualified
from sextant.doc_claims.judging.reader_members import reader_member_reason
from sextant.doc_claims.judging.task_runners import resolve_task, task_claim
from sextant.doc_rules.kinds import DOC_EXTENSIONS


@dataclass(frozen=True)
class Resolution:
    """What resolving one claim found, before dates are compared."""

    status: Literal["verified", "contradicted", "unverifiable"]
    evidence: str
    code_path: str | None = None
    """The file or folder the claim resolved to."""
    absent_name: str | None = None
    """The simple name looked for and not found at the head (history may know it)."""
    absent_is_class: bool = False
    """The absent name is a qualifier used as a class (`SyncSession` of `SyncSession.refresh`): only a
    past class definition counts."""
    absent_in_class: str | None = None
    """The repository's class it had to be a member of (`Session` for `Session.close`)."""
    absent_scope: str | None = None
    """The module it had to be in (`acme.session`), when the doc qualified it with one."""
    absent_package: str | None = None
    """The first part of a dotted name that nothing at the head is called (`jinja` of
    `jinja.exceptions`), or a module one of today's packages lacks (`aiohttp.websocket`): history may
    show it was a package or module of this repository."""
    mentioned_name: str | None = None
    """The simple name of a claim verified only because the code mentions it (no symbol defines it at the
    head): history may show its own definition removed."""
    absent_paths: tuple[str, ...] = ()
    """For a path the head lacks (contradicted, or unverifiable as maybe the reader's own): the paths
    it was looked for as (from the doc's folder, from the root); history may show this repository
    deleted one, and where it went."""
    site: SymbolSite | None = None
    """The definition a symbol claim resolved to (its changes over time can make the claim outdated)."""
    removed_by: str | None = None
    removed_at: str | None = None
    replacement: str | None = None
    changed: str | None = None


def check_claims(
    claims: Iterable[Claim],
    facts: CodeFacts,
    *,
    doc_dates: Mapping[str, str | None],
    history: ClaimHistory | None = None,
) -> list[ClaimFinding]:
    """Judge each claim against the code facts and, when given, the repository's history.

    Args:
        claims: Claims from extract_claims (any docs).
        facts: The code at the judged commit.
        doc_dates: Doc path → its last commit date (ISO 8601) or None when unknown.
        history: The repository's history (names it once defined, definitions that changed since
            the doc); None for an index alone, where nothing is outdated and absent names stay as
            the wording makes them.

    Returns:
        One finding per claim (none for changelog and release-notes docs, none for a parameter
        field's claim that is not outdated), sorted by doc, line, ref and kind.
    """
    own = own_names(facts)
    # A code sample's `requests.get` or `session.get` says nothing of this repository: only a sample's
    # name through one of our roots is a claim.
    # A string's root must be one of our import roots: example projects' names are strings too.
    roots = frozenset(module.split(".", 1)[0].lower() for module in facts.import_modules)
    ours = [claim for claim in claims if not claim.in_sample or claim.owner in (roots if claim.in_string else own)]
    judged = [(claim, _resolve_for(claim, facts)) for claim in ours if not is_history_doc(claim.doc)]
    if history is not None:
        judged = history.judge(judged, facts)
    documented: dict[tuple[str, str], set[str]] = {}
    for claim, _ in judged:
        if claim.parameter is not None:
            documented.setdefault((claim.doc, claim.target), set()).add(claim.parameter)
    judged = [
        _of_parameter(claim, resolution, facts, documented.get((claim.doc, claim.target), set()))
        for claim, resolution in judged
    ]
    told = _told_changes(judged)
    findings = [
        _finding(claim, _as_history_sentence(claim, _as_foreign(claim, resolution, own, facts)))
        for claim, resolution in judged
        if claim.parameter is None
        or resolution.changed
        or (
            resolution.status == "contradicted"
            and (claim.of_field or claim.parameter not in told.get((claim.doc, claim.target), ()))
        )
    ]
    del doc_dates  # dates matter only through history: a file's date alone says nothing of a definition
    return sorted(findings, key=lambda f: (f.doc, f.line, f.ref, f.kind, f.status))


def _of_parameter(
    claim: Claim, resolution: Resolution, facts: CodeFacts, documented: set[str]
) -> tuple[Claim, Resolution]:
    """A directive's documented parameter judged as such: news only when the definition lost it since
    the line (outdated, from history) or does not take it at all (contradicted); anything else
    about the definition is its directive's own claim, so every other resolution reads as verified."""
    if claim.parameter is None or resolution.changed:
        return claim, resolution
    site = resolution.site
    verified = resolution.status == "verified" and site is not None
    why = parameter_not_taken(claim, site, facts, documented) if verified and site is not None else None
    if why is None:
        return claim, Resolution("verified", resolution.evidence, resolution.code_path, site=site)
    return claim, Resolution("contradicted", why, site.path if site else None, site=site)


def _told_changes(judged: list[tuple[Claim, Resolution]]) -> dict[tuple[str, str], set[str]]:
    """(doc, definition) → the words of what its outdated claims say it lost: a signature slot of a
    parameter its directive's line already reports lost is the same news, told once (a field is a
    line of its own, to be fixed on its own)."""
    told: dict[tuple[str, str], set[str]] = {}
    for claim, resolution in judged:
        if resolution.changed and claim.kind == "symbol":
            told.setdefault((claim.doc, claim.target), set()).update(_WORD.findall(resolution.changed))
    return told


_WORD = re.compile(r"[A-Za-z_]\w*")


class ClaimHistory(Protocol):
    """What the repository's history adds to resolutions (see past_names and definition_changes)."""

    def judge(self, judged: list[tuple[Claim, Resolution]], facts: CodeFacts) -> list[tuple[Claim, Resolution]]:
        """Revise resolutions with history: absent names once defined, definitions changed since the doc."""
        ...


def resolve(claim: Claim, facts: CodeFacts) -> Resolution:
    """Resolve one claim the way a reader would, without looking at dates.

    Args:
        claim: The claim.
        facts: The indexed code.

    Returns:
        Its status (verified, contradicted or unverifiable), the evidence and the file it met.
    """
    resolvers = {
        "path": _resolve_path,
        "symbol": _resolve_symbol,
        "env": _resolve_env,
        "flag": _resolve_flag,
        "cli": _resolve_cli,
        "config_key": _resolve_config_key,
    }
    return resolvers[claim.kind](claim, facts)


def _resolve_for(claim: Claim, facts: CodeFacts) -> Resolution:
    """Resolve a claim; a code sample's name keeps no definition site, so it never joins the (budgeted)
    comparison of definitions: the sample's signatures are the API directives' and prose's to claim."""
    resolution = resolve(claim, facts)
    if resolution.status == "verified" and (missing := _missing_entry_point_module(claim, facts)) is not None:
        resolution = missing
    return dataclasses.replace(resolution, site=None) if claim.in_sample else resolution


# Files a module is imported from: source, a package, and a compiled module's Cython source or type stub.
_MODULE_FILE_SUFFIXES = (".py", "/__init__.py", ".pyi", "/__init__.pyi", ".pyx")


def _missing_entry_point_module(claim: Claim, facts: CodeFacts) -> Resolution | None:
    """An entry point's module (`acme.worker.autoscaler` of `'acme.worker.autoscaler:Autoscaler'`) that no
    file of the tree is, under a package of ours that is: the import fails, whatever the bare name finds."""
    module = claim.ref.split(":", 1)[0]
    if not claim.in_string or ":" not in claim.ref or module in facts.import_modules:
        return None
    parts = module.split(".")
    parents = [".".join(parts[:cut]) for cut in range(len(parts) - 1, 0, -1)]
    parent = next((name for name in parents if name in facts.import_modules), None)
    folder = "/".join(parts)
    if parent is None or any(
        f"{root}{folder}{suffix}" in facts.files for root in ("", "src/", "lib/") for suffix in _MODULE_FILE_SUFFIXES
    ):
        return None  # a file the index does not hold as a module (an empty `__init__.py`, a stub): the name decides
    name = claim.target.rsplit(".", 1)[-1]
    found = f"; {name} is {_defined(sites)}" if (sites := facts.symbols.get(name)) else ""
    return Resolution(
        "contradicted",
        f"no module {module} in this repository (module {parent} is {facts.import_modules[parent]}){found}",
        absent_scope=parent,
    )


def own_names(facts: CodeFacts) -> frozenset[str]:
    """The repository's own names, lower-case: its import roots, packages and declared programs
    (a claim's owner may also be a forge repository, `owner/name`, which the metadata decides)."""
    roots = {module.split(".", 1)[0] for module in facts.import_modules}
    return frozenset(
        name.lower() for name in roots | set(facts.programs) | {p.split(".", 1)[0] for p in facts.packages}
    )


def _as_foreign(claim: Claim, resolution: Resolution, own: frozenset[str], facts: CodeFacts) -> Resolution:
    """A name the sentence or its own spelling gives to another project, or to the reader's code, is not
    ours to contradict ("Flask's `Blueprint`", `kombu.Connection.ensure`, `result.get()`); one the
    history shows was ours (a removing commit) keeps its alarm."""
    if resolution.status != "contradicted":
        return resolution
    if claim.in_sample and not claim.as_imported and resolution.removed_by is None:
        # Modules fill themselves at run time (proxies, `globals()` updates) and samples reach the
        # reader's objects through our names: only the history's removing commit makes it news.
        reason: str | None = "a code sample's name the history does not show removed"
    elif claim.owner is not None and claim.owner not in own and claim.owner not in facts.forge_repos:
        reason = f"the doc names it as {claim.owner}'s"
    elif resolution.removed_by is None:
        reason = (
            foreign_reason(claim, resolution.absent_in_class, facts, own)
            or reader_member_reason(claim, resolution.absent_in_class, facts)
            or lazy_member_reason(_scope_path(resolution, facts), resolution.absent_in_class, facts)
        )
    else:
        reason = None
    if reason is None:
        return resolution
    return dataclasses.replace(resolution, status="unverifiable", evidence=f"{resolution.evidence}; {reason}")


def _scope_path(resolution: Resolution, facts: CodeFacts) -> str | None:
    """The file of the module an absent name was looked for in, when the doc qualified it with one."""
    return None if resolution.absent_scope is None else facts.import_modules.get(resolution.absent_scope)


def _as_history_sentence(claim: Claim, resolution: Resolution) -> Resolution:
    """An absent name in a sentence that tells history is what the sentence says, not an error."""
    if not claim.in_history_sentence or resolution.status != "contradicted":
        return resolution
    return dataclasses.replace(
        resolution,
        status="unverifiable",
        evidence=f"{resolution.evidence}; the sentence tells history (removed, renamed, an older version)",
    )


def _finding(claim: Claim, resolution: Resolution) -> ClaimFinding:
    status: ClaimStatus = "outdated" if resolution.changed and resolution.status == "verified" else resolution.status
    return ClaimFinding(
        doc=claim.doc,
        line=claim.line,
        ref=claim.ref,
        kind=claim.kind,
        status=status,
        evidence=resolution.evidence,
        removed_by=resolution.removed_by,
        removed_at=resolution.removed_at,
        replacement=resolution.replacement,
        changed=resolution.changed,
    )


def _where(site: Site) -> str:
    return f"{site.path}:{site.line}"


def _defined(sites: tuple[SymbolSite, ...]) -> str:
    first = sites[0]
    more = f" and {len(sites) - 1} other place{'s' if len(sites) > 2 else ''}" if len(sites) > 1 else ""
    return f"defined in {first.path}:{first.line} ({first.symbol_type} {first.qualified}){more}"


def _resolve_path(claim: Claim, facts: CodeFacts) -> Resolution:  # noqa: PLR0911, PLR0912 - one exit per way of finding it
    target = claim.target
    folder = posixpath.dirname(claim.doc)
    if claim.forge is not None and claim.forge not in facts.forge_repos:
        return Resolution(
            "unverifiable", f"a file of {claim.forge} on GitHub, which this repository's metadata does not name"
        )
    if target.startswith("/") or claim.forge is not None:
        candidates = [("repository root", target.lstrip("/"))]
    else:
        candidates = [("doc's folder", posixpath.join(folder, target)), ("repository root", target)]
    searched: list[str] = []
    for origin, raw in candidates:
        candidate = posixpath.normpath(raw).rstrip("/")
        if candidate.startswith("..") or candidate in {"", "."}:
            continue
        searched.append(candidate + ("/" if target.endswith("/") else ""))
        where = f" (relative to the {origin})" if folder and candidate != target.strip("/") else ""
        if candidate in facts.files:
            return Resolution("verified", f"file {candidate} exists{where}", candidate)
        if candidate in facts.directories:
            return Resolution("verified", f"folder {candidate}/ exists{where}", candidate)
        for alternative in _doc_alternatives(candidate):
            if alternative in facts.files:
                return Resolution("verified", f"file {alternative} exists{where}", alternative)
    matches = _suffix_matches(target, facts)
    if matches:
        others = f" (and {len(matches) - 1} more)" if len(matches) > 1 else ""
        return Resolution("verified", f"found as {matches[0]}{others}", matches[0])
    if "/" not in target and (module := facts.modules.get(target)) is not None:
        return Resolution("verified", f"module {target} is {module}", module)  # `msgspec.json`
    if (ignored := _ignored_by_repository(searched, facts)) is not None:
        return Resolution("unverifiable", ignored)
    if (blind_spot := _beyond_the_index(claim, searched, facts)) is not None:
        return Resolution("unverifiable", blind_spot)
    if not claim.linked and (reader := _readers_file(target, folder, facts)) is not None:
        return Resolution("unverifiable", reader)
    site_root = target.strip("/").split("/", 1)[0]
    # A Markdown link to `/api` is a URL of the built site; a Sphinx `:doc:` name `/gone` is a source page.
    routed = "/" in target.strip("/") or (not shapes.extension(target) and shapes.extension(claim.doc) in _URL_LINKED)
    if claim.linked and target.startswith("/") and routed and site_root not in facts.directories:
        # `[hooks](/api/hook)`, `[API](/api)`: a page of the built site, whose folder the repository does not hold.
        return Resolution("unverifiable", f"{target} is a path of the built site: no {site_root}/ here")
    if claim.linked and folder and target.endswith("/"):
        # `[API documentation](api/)`, `[newsletter](/newsletter/)` from a page of the docs: a folder-style
        # URL of the built site (generated API pages, pretty URLs), which the sources need not hold.
        return Resolution("unverifiable", f"no folder {target} here: from a docs page, a page of the built site")
    if claim.explicit:
        return Resolution(
            "contradicted", f"no file or folder {target} in the indexed files", absent_paths=tuple(searched)
        )
    return Resolution(
        "unverifiable",
        f"no file named {target} in the indexed files; it may be the reader's own file",
        absent_paths=tuple(searched),
    )


_URL_LINKED = frozenset({"md", "mdx", "markdown"})
"""Doc kinds whose links are URLs of the built site, not names of source pages."""


def _ignored_by_repository(searched: list[str], facts: CodeFacts) -> str | None:
    """Why an absent path is one the repository's `.gitignore` says is never committed, or None."""
    return next((why for path in searched if (why := facts.ignored.reason(path)) is not None), None)


def _readers_file(target: str, doc_folder: str, facts: CodeFacts) -> str | None:
    """Why an absent path named in prose or a command is the reader's own file, or None when it is ours.

    "Edit your `mysite/settings.py`", `go run main.go`, `acme-gen schema > models.py`: files the reader
    creates or a tool generates. Such a path is skipped when neither it nor the folder it sits in
    exists in the repository (from the root or from the doc's folder); `tests/fixtures/config.yaml`
    is still checked when `tests/fixtures/` exists.
    """
    path = target.strip("/")
    if "/" not in path:
        return f"no file {path} in the repository; a bare file name in prose or a command is often the reader's own"
    parent = posixpath.dirname(path)
    if parent in facts.directories:
        return None
    if doc_folder and posixpath.normpath(posixpath.join(doc_folder, parent)) in facts.directories:
        return None
    return (
        f"neither {path} nor its folder {parent}/ is in the repository: a file the reader creates or a tool generates"
    )


def _beyond_the_index(claim: Claim, searched: list[str], facts: CodeFacts) -> str | None:
    """Why the index cannot judge an absent path, or None when its absence is evidence (see index_coverage).

    A file of a kind the indexer never holds proves nothing by its absence, whatever the doc's wording.
    An extension-less name the doc was not firm about (an inline `.ci/run`, `./scripts/deploy`) may be
    such a file or a folder without indexed files; a link or a Sphinx `:doc:` stays firm, since there an
    extension-less name is a doc page (`/usage` → usage.rst), and so does a name ending in `/`. A path
    under a hidden folder the index holds nothing of is tool state or a cache, usually gitignored.
    """
    if facts.whole_tree:
        return None  # the whole git tree is known: absent from it is absent from the repository
    target = claim.target
    name = target.rstrip("/").rsplit("/", 1)[-1]
    if not target.endswith("/") and not index_can_hold(name):
        if not has_no_extension(name) or name in WELL_KNOWN_FILES:
            return f"{target} is a kind of file the index does not hold (only known languages and docs are indexed)"
        if not claim.explicit:
            return (
                f"{target} has no file extension: the index holds no such file (only known languages and docs "
                "are indexed) and sees a folder only through its indexed files"
            )
    hidden = [unindexed_hidden_folder(path, facts.directories) for path in searched]
    if hidden and all(hidden):
        return (
            f"the index holds nothing under {hidden[-1]}/: hidden folders keep tool state, caches and "
            "generated files, usually gitignored and never indexed"
        )
    return None


def _suffix_matches(target: str, facts: CodeFacts) -> list[str]:
    """Indexed paths that end with the target at a folder boundary (`auth/session.py` → src/…).

    Also tries doc extensions for an extension-less target (Sphinx `:doc:` names, `/usage`).
    """
    suffix = shapes.normalize_path(target.strip("/"))
    for candidate in [suffix, *_doc_alternatives(suffix)]:
        name = candidate.rsplit("/", 1)[-1]
        matches = [p for p in facts.by_name.get(name, ()) if p == candidate or p.endswith("/" + candidate)]
        if matches:
            return matches
    return []


def _doc_alternatives(candidate: str) -> list[str]:
    """Other names a doc link may mean: `guide` → `guide.md`, `guide.html` → `guide.rst`."""
    ext = shapes.extension(candidate)
    if ext == "html":
        stem = candidate[: -len(".html")]
    elif ext == "":
        stem = candidate
    else:
        return []
    return [stem + suffix for suffix in sorted(DOC_EXTENSIONS)] + [stem + "/index.md", stem + "/index.rst"]


def _resolve_symbol(claim: Claim, facts: CodeFacts) -> Resolution:  # noqa: PLR0911, PLR0912 - one exit per way of finding it
    name = claim.target
    last = name.rsplit(".", 1)[-1]
    if name in facts.qualified_symbols:
        sites = facts.qualified_symbols[name]
        return Resolution("verified", _defined(sites), sites[0].path, site=sites[0])
    if name in facts.modules:
        path = facts.modules[name]
        return Resolution("verified", f"module {name} is {path}", path)
    if (named := facts.string_site(name)) is not None:
        # `flask.commands`: an entry-point group, a logger or a settings name the code writes as a string.
        return Resolution("verified", f"named as the string '{named[1]}' in {_where(named[0])}", named[0].path)
    if (retired := facts.retired_strings.get(name)) is not None:
        # The code names it only to say it is gone: the doc that presents it as current is behind.
        return Resolution(
            "contradicted", f"the code names '{name}' only to say it is no longer supported ({_where(retired)})"
        )
    if "." in name and (lookup := resolve_qualified(name, facts)) is not None:
        if lookup.found:
            return Resolution("verified", lookup.evidence, lookup.path, site=lookup.site)
        if lookup.foreign_base is not None:
            return Resolution("unverifiable", lookup.evidence)
        return Resolution(
            "contradicted" if lookup.firm else "unverifiable" if lookup.missing_module else _absent(claim),
            lookup.evidence,
            absent_name=last,
            absent_scope=lookup.module,
            absent_in_class=lookup.owner_class,
            absent_package=lookup.missing_module,
        )
    if "." in name and (unknown := _unknown_root(name, facts)) is not None:
        # `SyncSession.refresh` when nothing at the head is called SyncSession: the bare `refresh`
        # elsewhere proves nothing; history may show the qualifier was a class of ours (then it is
        # stale). A lower-case root (`err.status`, `string.Template`) is a variable or a module of
        # someone else's: not looked up.
        class_like = shapes.CAMEL.match(unknown) is not None and unknown not in LANGUAGE_CLASSES
        return Resolution(
            "unverifiable",
            f"{unknown} is not a package or symbol of this repository (another library?)",
            absent_name=unknown if class_like else None,
            absent_is_class=class_like,
            absent_package=unknown if unknown.islower() and unknown.isidentifier() else None,
        )
    if last in facts.symbols:
        sites = facts.symbols[last]
        return Resolution("verified", _defined(sites), sites[0].path, site=sites[0] if "." not in name else None)
    if "." not in name and (gone := _listed_as_gone(name, facts)) is not None:
        return gone
    if (site := facts.identifiers.get(last)) is not None:
        return Resolution(
            "verified", f"named in {_where(site)} (no definition in the code)", site.path, mentioned_name=last
        )
    if "." in name:
        root = name.split(".", 1)[0]
        if root not in facts.packages and root not in facts.symbols:
            return Resolution(
                "unverifiable", f"{root} is not a package or symbol of this repository (another library?)"
            )
    if claim.explicit:
        return Resolution("contradicted", f"no file or symbol named {name} in the indexed code", absent_name=last)
    return Resolution(
        "unverifiable",
        f"no symbol named {name} in the code; the name may not refer to this repository",
        absent_name=last,
    )


def _unknown_root(name: str, facts: CodeFacts) -> str | None:
    """The first segment of a dotted name when the head knows nothing by that name, else None."""
    root = name.split(".", 1)[0]
    known = root in facts.packages or root in facts.symbols or root in facts.modules or root in facts.bound_anywhere
    return None if known else root


def _resolve_env(claim: Claim, facts: CodeFacts) -> Resolution:
    name = claim.target
    if (site := facts.identifiers.get(name)) is not None:
        return Resolution("verified", f"appears in {_where(site)}", site.path)
    if (site := facts.env_settings.get(name)) is not None:
        return Resolution("verified", f"set or read in {_where(site)} (a settings file or script)", site.path)
    if (formed := composed_name(name, facts.composed_names)) is not None:
        path, line, how = formed
        return Resolution("verified", f"a setting name {path}:{line} forms: {how}", path)
    if name.startswith(THIRD_PARTY_ENV_PREFIXES) or name in THIRD_PARTY_ENV_NAMES or shapes.is_placeholder(name):
        return Resolution("unverifiable", f"{name} is not in the indexed code; platforms and tools read it")
    if claim.explicit:
        return Resolution("contradicted", f"{name} appears nowhere in the indexed code", absent_name=name)
    return Resolution("unverifiable", f"{name} is not in the indexed code", absent_name=name)


def _program(command: str, facts: CodeFacts) -> tuple[str, str | None] | None:
    """Where the indexed code shows a program exists: (evidence, path), or None when it does not."""
    if "/" in command:
        path = shapes.normalize_path(command)
        path = _installed_file(path, facts) or path
        if path in facts.files:
            return f"script {path} exists", path
        return None
    if (declared := facts.programs.get(command)) is not None:
        return f"program {command} declared in {_where(declared)}", declared.path
    return None  # only the repository's own entry points have flags and subcommands we can check


def _resolve_flag(claim: Claim, facts: CodeFacts) -> Resolution:
    flag = claim.target
    if claim.command is not None and (script := run_script(claim.command, facts.files, facts.programs.keys())):
        # `python bench/run.py --rounds 3`: the script's own options decide, whatever its folder.
        status, evidence, path = script_flag(
            flag, script, claim.after_words, facts.flag_declarations, firm=claim.explicit
        )
        return Resolution(status, evidence, path)
    program = _program(claim.command, facts) if claim.command is not None else None
    if claim.command is not None and program is None:
        return Resolution("unverifiable", f"a flag of {claim.command}, which the indexed code does not define")
    return _flag_resolution(claim, flag, facts, go=program is not None and is_go_program(program[1]))


def _flag_resolution(claim: Claim, flag: str, facts: CodeFacts, *, go: bool) -> Resolution:  # noqa: PLR0911 - one exit per answer
    """A flag is defined by an option declaration of the library code (see flag_evidence), not by its
    text anywhere: a Makefile line of another program, a test passing it, a parameter of that name."""
    if (declared := declared_flag(flag, facts.flag_declarations, attached=not go)) is not None:
        site, how = declared
        return Resolution("verified", how, site.path)
    if (task := task_parameter(flag, claim.after_words, facts)) is not None:
        return Resolution("verified", f"a parameter of the subcommand's function in {task} (the flag's derived name)")
    if flag in FRAMEWORK_FLAGS:
        return Resolution("unverifiable", f"{flag} is declared by no option of the code; CLI frameworks provide it")
    if unread := facts.flag_declarations.unread:
        return Resolution(
            "unverifiable",
            f"no option of the indexed code declares {flag}; {unread[0]}, which the index does not read, may",
        )
    if (word := next((w for w in claim.after_words if not _declares_command(w, facts)), None)) is not None:
        return Resolution(
            "unverifiable",
            f"no option of the code declares {flag}; it follows {word}, which the code declares no command"
            " by (another package's subcommand, or an argument)",
        )
    for name in derived_names(flag):
        if ("-" in name or "_" in name) and (named := facts.identifiers.get(name)) is not None:
            # `--faulthandler-timeout` beside `addini("faulthandler_timeout")`: a name of several words
            # the code has is too particular to call the flag absent (a setting now, or an unread option).
            return Resolution(
                "unverifiable", f"no option of the code declares {flag}, but {name} appears in {_where(named)}"
            )
    mention = facts.identifiers.get(flag)
    where = f"; it appears only in {_where(mention)}, which declares no option" if mention is not None else ""
    if claim.explicit:
        return Resolution("contradicted", f"no option of the code declares {flag}{where}")
    alone = "a short flag" if not flag.startswith("--") else "a flag the doc does not tie to one of our programs"
    why = f"no option of the code declares {flag}{where}; {alone} may belong to another tool"
    return Resolution("unverifiable", why)


def _declares_command(word: str, facts: CodeFacts) -> bool:
    """Whether the code declares a (sub)command by this word: a definition of that name (celery's
    `class worker`, a Typer function), a command declaration (`.command("run")`) or a program."""
    snake = word.replace("-", "_")
    declared = facts.flag_declarations.commands
    return word in declared or word in facts.programs or word in facts.symbols or snake in facts.symbols


def _resolve_cli(claim: Claim, facts: CodeFacts) -> Resolution:  # noqa: PLR0911 - one exit per way of finding it
    if (task := task_claim(claim.command, claim.target)) is not None:  # `grunt build`, `npm run docs`
        return Resolution(*resolve_task(*task, facts.files, facts.flag_declarations.tasks))
    words = claim.target.split()
    if claim.command is None:
        if (site := _command_site(words[0], facts)) is not None:
            return Resolution("verified", f"command {words[0]} appears in {_where(site)}", site.path)
        # "the `fab` command": only the repository's declared programs are held to the code.
        return Resolution("unverifiable", f"no program or command {words[0]} of this repository")
    program = _program(claim.command, facts)
    if program is None and (installed := _installed_file(shapes.normalize_path(claim.command), facts)) is not None:
        # `./node_modules/mocha/bin/mocha` in mocha's own docs: this package's file as npm installs it.
        return Resolution(
            _absent(claim), f"{claim.command} would be this package's {installed}, which it does not have"
        )
    if program is None:
        return Resolution("unverifiable", f"{claim.command} is not a command of the indexed code (another tool?)")
    evidence, path = program
    if len(words) < 2:
        return Resolution("verified", evidence, path)
    sub = words[-1]
    if (site := _command_site(sub, facts)) is not None:
        return Resolution("verified", f"{evidence}; subcommand {sub} in {_where(site)}", site.path)
    return Resolution(_absent(claim), f"{evidence}, but no subcommand {sub} appears in the indexed code")


def _installed_file(path: str, facts: CodeFacts) -> str | None:
    """The repository path that `node_modules/<this package>/<path>` stands for (npm installs the package
    there), or None when the path is not under this package's install folder."""
    before, found, rest = path.partition("node_modules/")
    package, _, inside = rest.partition("/")
    if not found or before.strip("./") or package not in facts.programs or not inside:
        return None
    return inside


def _absent(claim: Claim) -> Literal["contradicted", "unverifiable"]:
    """The status of an absent target: a contradiction only when the doc was firm about it."""
    return "contradicted" if claim.explicit else "unverifiable"


def _command_site(name: str, facts: CodeFacts) -> Site | None:
    """Where a (sub)command name appears; Click and Typer derive `create-user` from `create_user`."""
    return facts.identifiers.get(name) or facts.identifiers.get(name.replace("-", "_"))


def _listed_as_gone(name: str, facts: CodeFacts) -> Resolution | None:
    """A bare name the library lists in a retired-names constant and defines nowhere: contradicted by the
    code's own word (`'allow_mutation'` in `V2_REMOVED_KEYS`), with a renaming dict's value as the
    replacement."""
    listed = facts.retired_names.get(name)
    if listed is None or name in facts.symbols:
        return None
    site, retired = listed
    verb = f"renamed to {retired.replacement}" if retired.replacement else "gone"
    return Resolution(
        "contradicted",
        f"the code lists '{name}' in {retired.collection} of {site.path}: {verb}",
        site.path,
        replacement=retired.replacement,
    )


def _resolve_config_key(claim: Claim, facts: CodeFacts) -> Resolution:
    key = claim.target
    if (gone := _listed_as_gone(key, facts)) is not None:
        return gone
    for form in (key, key.replace("-", "_"), key.replace("_", "-")):
        if (site := facts.identifiers.get(form)) is not None:
            return Resolution("verified", f"appears in {_where(site)}", site.path)
    parts = [part for part in key.replace("-", "_").split(".") if part]
    sites = [facts.identifiers.get(p) or facts.identifiers.get(p.replace("_", "-")) for p in parts]
    last = sites[-1] if sites else None
    if len(parts) > 1 and all(sites) and last is not None:
        return Resolution("verified", f"keys {', '.join(parts)} appear in the code ({_where(last)})", last.path)
    if claim.explicit:
        return Resolution("contradicted", f"no key {key} in the indexed code", absent_name=key)
    return Resolution("unverifiable", f"{key} is not in the indexed code", absent_name=key)
