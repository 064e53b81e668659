"""What the indexed code holds, gathered in one pass over chunk payloads: the facts doc claims meet."""

from __future__ import annotations

import dataclasses
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass
from datetime import datetime
from pathlib import PurePosixPath

import msgspec

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_claims.judging.composed_names import (
    NameParts,
    forming_files,
    joins_with_underscore,
    name_parts,
    upper_cases,
)
from sextant.doc_claims.judging.declared_names import DeclaredName
from sextant.doc_claims.judging.env_files import ENV_SETTINGS_LANGUAGE, env_settings
from sextant.doc_claims.judging.flag_evidence import DeclaredFlags, FlagDeclarations
from sextant.doc_claims.judging.go_members import (
    GO_LANGUAGE,
    GO_TYPE_KINDS,
    go_package_names,
    go_type_body,
    is_documented_go_package,
)
from sextant.doc_claims.judging.ignored_paths import IgnoredPaths, IgnoreFileTexts
from sextant.doc_claims.judging.lazy_members import GETATTR, GetattrHook, read_hook
from sextant.doc_claims.judging.outlines import Outlines
from sextant.doc_claims.judging.program_names import declared_programs
from sextant.doc_claims.judging.registered_members import (
    Registration,
    decorator_registrations,
    registered_members,
    sets_computed_attributes,
)
from sextant.doc_claims.judging.retired_names import RetiredName, retired_names
from sextant.doc_claims.judging.script_members import SCRIPT_LANGUAGES, SCRIPT_TYPE_KINDS, script_type_members
from sextant.doc_rules.kinds import chunk_kind
from sextant.doc_rules.staleness import parse_iso_date
from sextant.parsing.symbol_kinds import NON_DEFINITION_SYMBOL_TYPES

# Symbol types that are not definitions a doc could name.
# Identifiers, compound keys (a.b, dry-run) and flags (--force) as they appear in code text.
_TOKEN = re.compile(r"(?<![\w-])--?[A-Za-z][\w-]*|[A-Za-z_]\w*(?:[.-][A-Za-z_]\w*)*")
_COMPOUND_PARTS = re.compile(r"[.-]")
_STAR_EXPORT = re.compile(
    r"^\s*from\s+\S+\s+import\s+\*|^\s*export\s+\*\s+from\b"
    r"|^\s*sys\.modules\[__name__\]\s*=",  # a module that replaces itself at import (`= vine.five`)
    re.M,
)
_CLASS_TYPES = frozenset({"class", "struct", "interface", "record", "trait", "enum"})
_OUTLINE_TYPES = frozenset({"class", "module"})
"""Chunks that outline a container: its own lines, each member shown by its header and a `...` line."""
_BASES = re.compile(r"^\s*(?:class|struct|interface)\s+\w+\s*(?:\[[^\]]*\])?\s*\(([^)]*)\)|\bextends\s+([\w.]+)")
_METADATA_FILES = frozenset({"pyproject.toml", "setup.cfg", "setup.py", "package.json", "go.mod", "Cargo.toml"})
_FORGE_SLUG = re.compile(r"github\.com[/:]([\w.-]+/[\w.-]+)")
_SAMPLE_FOLDERS = frozenset(
    {"docs", "doc", "examples", "example", "samples", "sample", "tests", "test", "bench", "benchmarks"}
)


@dataclass(frozen=True, slots=True)
class _OutlineKind:
    """What an outline chunk is, kept until its lines are placed."""

    kind: str
    """`module`, `class` or `interface`."""
    package: str | None
    window: int = 0


@dataclass(frozen=True, order=True, slots=True)
class Site:
    """A place in the indexed code: a file and a 1-based line."""

    path: str
    line: int


@dataclass(frozen=True, order=True, slots=True)
class SymbolSite:
    """Where a symbol is defined, and what it is."""

    path: str
    line: int
    symbol_type: str
    qualified: str
    """The symbol as `Parent.member` when it has a parent, else its name."""


@dataclass(frozen=True)
class CodeFacts:
    """Facts about the indexed repository that doc claims are checked against."""

    files: frozenset[str]
    """Every indexed file, docs included (a doc may link to another doc)."""
    code_files: frozenset[str]
    """Indexed files classified as code."""
    directories: frozenset[str]
    """Every folder that holds an indexed file (no trailing slash)."""
    by_name: Mapping[str, tuple[str, ...]]
    """Last path segment (file or folder name) → the paths that end with it, sorted."""
    symbols: Mapping[str, tuple[SymbolSite, ...]]
    """Simple symbol name → its definitions, sorted by path and line."""
    qualified_symbols: Mapping[str, tuple[SymbolSite, ...]]
    """`Parent.member`, `package.name` and `package.Parent.member` → definitions."""
    modules: Mapping[str, str]
    """Dotted module names (every dotted suffix of a code file or folder path) → first path."""
    packages: frozenset[str]
    """Dotted names of folders that hold code (`app`, `svcs`, `app.auth`): a dotted doc name whose
    first segment is one of these points into this repository."""
    programs: Mapping[str, Site]
    """Command-line programs the code declares (script tables, package.json bin, argparse prog=,
    cmd/<name>/main.go, ...) → where."""
    identifiers: Mapping[str, Site]
    """Tokens of code text (identifiers, env vars, keys, flags) → first place they appear."""
    last_modified: Mapping[str, str | None]
    """File → last commit date (ISO 8601), None when unknown."""
    directory_last_modified: Mapping[str, str]
    """Folder → the newest known last commit date of the files under it."""
    file_tokens: Mapping[str, Set[str]] = dataclasses.field(default_factory=dict)
    """Code file → the tokens of its text a public member could be named by (dotted compounds and
    `_private` names left out): what a module defines, imports or re-exports."""
    import_modules: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Full dotted import name of each Python module or package of the repository (`acme.session`),
    counted from its import root (the top level or `src/`), samples and tests left out → its path."""
    file_bindings: Mapping[str, frozenset[str]] = dataclasses.field(default_factory=dict)
    """Code file → names it binds besides its definitions: top-level assignments and imports, class
    attributes and fields, `self.x = …`, `__all__` entries, JavaScript exports (what a module or a
    class may be said to have, without counting every word of its text)."""
    bound_anywhere: frozenset[str] = frozenset()
    """Every name any code file binds (the union of file_bindings)."""
    star_exports: frozenset[str] = frozenset()
    """Code files that re-export whole modules (`from x import *`, `export * from`) or replace themselves
    at import (`sys.modules[__name__] = vine.five`): any name may be theirs."""
    class_bases: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    """Class name → the simple names of its bases, from the declaration lines of every class of that
    name, each read through its file's import aliases (`class Blueprint(SansioBlueprint)` after
    `from .sansio.blueprints import Blueprint as SansioBlueprint` has base `Blueprint`)."""
    attached_members: Mapping[str, frozenset[str]] = dataclasses.field(default_factory=dict)
    """Name → members assigned onto it from outside a class body (`CancelToken.source = function …`,
    `Router.prototype.route = …`, `Flask.json = property(…)`): a constructor function's or an object's API."""
    dotted_strings: Mapping[str, Site] = dataclasses.field(default_factory=dict)
    """Dotted names the repository's own code writes as whole string literals (`"flask.commands"`: an
    entry-point group, a logger or settings name) → where: named by the code, though no attribute.
    A template with a leading placeholder (`'{self.namespace}.commands'`) is kept as `{}.commands`."""
    retired_strings: Mapping[str, Site] = dataclasses.field(default_factory=dict)
    """Dotted names the code writes as string literals only on lines saying they are no longer supported
    or were removed (`'mocha.opts' is DEPRECATED and no longer supported`) → the first such line."""
    retired_names: Mapping[str, tuple[Site, RetiredName]] = dataclasses.field(default_factory=dict)
    """Old names the library's code lists as gone, in a constant named so (`V2_REMOVED_KEYS`,
    `RENAMED_SETTINGS`): see retired_names."""
    signatures: Mapping[tuple[str, str], tuple[str, ...]] = dataclasses.field(default_factory=dict)
    """(file, qualified symbol) → its declaration line(s), one per definition (overloads, a property's
    getter and setter): what a definition looks like at the head."""
    forge_repos: frozenset[str] = frozenset()
    """This repository's own forge names (`hynek/structlog`, lower-case), from its metadata files
    (pyproject.toml, setup.cfg, setup.py, package.json, go.mod, Cargo.toml): a forge link to one of
    them names a file of this repository."""
    env_settings: Mapping[str, Site] = dataclasses.field(default_factory=dict)
    """Environment variables the repository's settings files no parser reads set or read (init
    scripts without an extension, systemd units, `.env` and `.conf` files) → the first place."""
    composed_names: Mapping[str, NameParts] = dataclasses.field(default_factory=dict)
    """Code files (not tests or samples) that form upper-case setting names from literal parts (a
    template `'celery_{0}'`, a nested table's keys, upper-cased) → those parts (see composed_names)."""
    registered_members: Mapping[str, Mapping[str, Registration]] = dataclasses.field(default_factory=dict)
    """Class name → members decorators register onto it at import (`@Operations.register_operation("drop_table")`
    where the class sets computed attributes; see registered_members) → where."""
    ignored: IgnoredPaths = dataclasses.field(default_factory=lambda: IgnoredPaths({}))
    """The tree's `.gitignore` rules: an absent path they match is one the repository never commits."""
    lazy_modules: Mapping[str, GetattrHook] = dataclasses.field(default_factory=dict)
    """Python file → its module-level `__getattr__`: a module that answers names at import (see lazy_members)."""
    lazy_classes: Mapping[str, tuple[GetattrHook, ...]] = dataclasses.field(default_factory=dict)
    """Class name → the `__getattr__` methods classes of that name define (library code only)."""
    module_factory_names: frozenset[str] = frozenset()
    """Quoted names in library files that make modules at run time (`ModuleType(…)`,
    `sys.modules[name] = …`, celery's `COMPAT_MODULES = {'celery': {'registry': …}}`): a module of
    such a name may import though no file of the tree is it."""
    go_package_folders: Mapping[str, frozenset[str]] = dataclasses.field(default_factory=dict)
    """Go package name → the folders of the library files that declare it ('' for the top level): where
    a name the doc writes through that package (`cli.AppHelpTemplate`) was defined in the past."""
    go_packages: Mapping[str, frozenset[str]] = dataclasses.field(default_factory=dict)
    """Go package name (`cli`) → the names its library files declare at the package level (functions,
    types, vars, consts; not methods or fields): what `cli.Name` can mean (see is_documented_go_package)."""
    flag_declarations: DeclaredFlags = dataclasses.field(default_factory=DeclaredFlags)
    """Flags (`--app`, `-a`) and option names (`app`) the library code declares as a program's options,
    each at its first place (see flag_evidence): where a flag claim is defined."""
    whole_tree: bool = False
    """True when `files` holds the commit's whole git tree (not only indexed files): then an absent
    path is absent from the repository, whatever its kind."""

    def string_site(self, name: str) -> tuple[Site, str] | None:
        """Where the code writes a dotted name as a string: whole, or as a template that puts one of
        our roots in front (`'{self.namespace}.commands'` for `celery.commands`), and which of them.

        Args:
            name: A dotted name.

        Returns:
            (site, the literal as written or templated), or None.
        """
        if (site := self.dotted_strings.get(name)) is not None:
            return site, name
        root, dot, rest = name.partition(".")
        template = f"{DOTTED_TEMPLATE_ROOT}.{rest}"
        ours = root in self.import_modules or root in self.packages
        if dot and ours and (site := self.dotted_strings.get(template)) is not None:
            return site, template
        return None

    @classmethod
    def from_payloads(cls, payloads: Iterable[ChunkPayload]) -> CodeFacts:
        """Gather the facts from chunk payloads in one pass.

        Args:
            payloads: Chunk payloads of one repository (docs and code, any order).

        Returns:
            The facts; code text and symbols come from code chunks only, files from all chunks.
        """
        collector = CodeFactsCollector()
        for payload in payloads:
            collector.add(payload)
        return collector.build()


class CodeFactsCollector:
    """Accumulates CodeFacts one payload at a time, so a caller can share a single pass."""

    def __init__(self, *, file_tokens: bool = True) -> None:
        """Start empty.

        Args:
            file_tokens: Keep each code file's token set (`CodeFacts.file_tokens`); only judging
                against the repository's history reads it, so a check without history can save it.
        """
        self._keep_file_tokens = file_tokens
        self._files: set[str] = set()
        self._code_files: set[str] = set()
        self._symbols: dict[str, dict[tuple[str, str], SymbolSite]] = defaultdict(dict)
        self._qualified: dict[str, dict[tuple[str, str], SymbolSite]] = defaultdict(dict)
        self._packages: dict[str, str] = {}
        self._identifiers: dict[str, Site] = {}
        self._programs: dict[str, Site] = {}
        self._dates: dict[str, str | None] = {}
        self._whole_tree = False
        self._ignore_files = IgnoreFileTexts()
        self._file_tokens: dict[str, frozenset[str]] = {}
        self._bases: dict[tuple[str, str], tuple[str, ...]] = {}
        self._embedded: dict[tuple[str, str], dict[str, None]] = defaultdict(dict)
        self._outlines: Outlines[_OutlineKind] = Outlines()
        self._go_packages: dict[str, set[str]] = defaultdict(set)
        self._go_package_folders: dict[str, set[str]] = defaultdict(set)
        self._quoted_names: dict[str, set[str]] = defaultdict(set)
        self._module_factories: set[str] = set()
        self._aliases: dict[str, dict[str, tuple[str, str]]] = {}
        self._attached: dict[str, set[str]] = defaultdict(set)
        self._dotted_strings: dict[str, Site] = {}
        self._retired_strings: dict[str, Site] = {}
        self._retired_names: dict[str, tuple[Site, RetiredName]] = {}
        self._forge_repos: set[str] = set()
        self._signatures: dict[tuple[str, str], list[str]] = defaultdict(list)
        self._star_exports: set[str] = set()
        self._bindings: dict[str, frozenset[str]] = {}
        self._env_settings: dict[str, Site] = {}
        self._name_parts: dict[str, NameParts] = {}
        self._upper_casing: set[str] = set()
        self._joining: set[str] = set()
        self._registrations: dict[str, dict[str, Registration]] = defaultdict(dict)
        self._setting_attributes: set[str] = set()
        self._lazy_modules: dict[str, GetattrHook] = {}
        self._lazy_classes: dict[str, list[GetattrHook]] = defaultdict(list)
        self._getattr_windows: dict[tuple[str, str], dict[int, tuple[int, str]]] = defaultdict(dict)
        self._flags = FlagDeclarations()

    def add_tree(self, paths: Iterable[str]) -> None:
        """Take in every path of the commit's git tree, so paths are judged against all of it.

        Args:
            paths: File paths of the tree (read or not); their folders count too.
        """
        self._files.update(paths)
        self._whole_tree = True

    def add(self, payload: ChunkPayload) -> None:
        """Take in one chunk payload."""
        path = sys.intern(payload.path)  # one string per file, however many chunks and sites name it
        self._files.add(path)
        date = payload.last_modified_at
        if path not in self._dates or self._dates[path] is None:
            self._dates[path] = None if isinstance(date, msgspec.UnsetType) else date
        self._ignore_files.offer(path, payload.start_line, payload.text)
        if payload.language == ENV_SETTINGS_LANGUAGE:
            self._add_env_settings(path, payload)
            return
        if chunk_kind(path) != "code":
            return
        self._code_files.add(path)
        self._add_symbol(path, payload)
        self._add_declared_members(path, payload)
        self._add_identifiers(path, payload.start_line, payload.text)
        if _STAR_EXPORT.search(payload.text):
            self._star_exports.add(path)
        outline = payload.symbol_type in _OUTLINE_TYPES
        _merge_into(self._bindings, path, frozenset(map(sys.intern, bound_names(payload.text, outline=outline))))
        if path.rsplit("/", 1)[-1] in _METADATA_FILES:
            self._forge_repos.update(slug.lower().removesuffix(".git") for slug in _FORGE_SLUG.findall(payload.text))
        if aliases := import_aliases(payload.text):
            self._aliases.setdefault(path, {}).update(aliases)
        for owner, member in attached_members(payload.text):
            self._attached[owner].add(member)
        library = not is_sample_path(path)  # a test's registrations are not the library's API
        self._flags.offer_chunk(path, payload.start_line, payload.text, library=library)
        if library:
            self._add_registrations(path, payload)
            self._add_name_parts(path, payload)
            self._add_named_strings(path, payload)
        for program, line in declared_programs(path, payload.text, payload.start_line):
            site = Site(path, line)
            if program not in self._programs or site < self._programs[program]:
                self._programs[program] = site

    def _still_gone(self) -> dict[str, tuple[Site, RetiredName]]:
        """The retired names no other library file still reads by name (`extra.pop('allow_mutation')`
        in `fields.py` keeps a deprecated keyword working, whatever a config's REMOVED list says); a
        vendored older major version (`pydantic/v1/`) does not count."""
        quoted: dict[str, set[str]] = defaultdict(set)
        for path, names in self._quoted_names.items():
            if not any(_OLD_MAJOR_FOLDER.match(part) for part in path.split("/")[:-1]):
                for name in names & self._retired_names.keys():
                    quoted[name].add(path)
        return {name: listed for name, listed in self._retired_names.items() if not quoted[name] - {listed[0].path}}

    def _add_named_strings(self, path: str, payload: ChunkPayload) -> None:
        """Dotted names the library writes as strings, old names it lists as gone, modules it makes."""
        if path.endswith(".py"):
            self._quoted_names[path].update(_QUOTED.findall(payload.text))
            if _MODULE_FACTORY.search(payload.text):
                self._module_factories.add(path)  # its quoted names may be modules it makes
            for name, retired_name in retired_names(payload.text).items():
                site = Site(path, payload.start_line + retired_name.line_offset)  # an outline's is near, not exact
                if name not in self._retired_names or site < self._retired_names[name][0]:
                    self._retired_names[name] = (site, retired_name)
        for offset, dotted, retired in dotted_string_literals(payload.text):
            site = Site(path, payload.start_line + offset)
            named = self._retired_strings if retired else self._dotted_strings
            if dotted not in named or site < named[dotted]:
                named[dotted] = site

    def _add_registrations(self, path: str, payload: ChunkPayload) -> None:
        """Decorator calls that may register members onto a class, and whether this file installs any."""
        if sets_computed_attributes(payload.text):
            self._setting_attributes.add(path)
        for offset, owner, method, member in decorator_registrations(payload.text):
            found = Registration(path, payload.start_line + offset, method)
            known = self._registrations[owner].get(member)
            if known is None or found < known:
                self._registrations[owner][member] = found

    def _add_name_parts(self, path: str, payload: ChunkPayload) -> None:
        """The parts this chunk forms setting names from, merged into its file's."""
        if upper_cases(payload.text):
            self._upper_casing.add(path)
        if joins_with_underscore(payload.text):
            self._joining.add(path)
        parts = name_parts(payload.text, payload.start_line)
        if parts is None:
            return
        known = self._name_parts.get(path)
        if known is None:
            self._name_parts[path] = parts
        else:
            known.take(parts)

    def _add_env_settings(self, path: str, payload: ChunkPayload) -> None:
        """A settings file no parser reads: only the environment variables it sets or reads count."""
        for offset, name in env_settings(path, payload.text):
            site = Site(path, payload.start_line + offset)
            if name not in self._env_settings or site < self._env_settings[name]:
                self._env_settings[name] = site

    def _add_symbol(self, path: str, payload: ChunkPayload) -> None:
        name = payload.symbol
        if not name or payload.symbol_type in NON_DEFINITION_SYMBOL_TYPES:
            return
        qualified = sys.intern(f"{payload.parent}.{name}" if payload.parent else name)
        if payload.signature and payload.window == 0:
            self._signatures[(path, qualified)].append(payload.signature)
            if not is_sample_path(path):
                self._flags.offer_signature(path, payload.start_line, payload.signature)
        if payload.symbol_type in _CLASS_TYPES and payload.signature and (path, name) not in self._bases:
            self._bases[(path, name)] = class_bases(payload.signature)
        site = SymbolSite(path, payload.start_line, sys.intern(payload.symbol_type), qualified)
        if name == GETATTR and path.endswith((".py", ".pyi")):
            # A long hook is cut into windows (click's deprecation shims): read once, joined, at build.
            self._getattr_windows[(path, qualified)][payload.window] = (payload.start_line, payload.text)
        # A Go method is its receiver's (`App.Run`), not its package's (`cli.Run`).
        self._add_site(
            name, site, payload.package, package_level=not (payload.parent and payload.language == GO_LANGUAGE)
        )

    def _add_site(
        self, name: str, site: SymbolSite, package: str | None, *, by_name: bool = True, package_level: bool = True
    ) -> None:
        """A definition under its simple name, as `Parent.member`, and under its package.

        Args:
            name: The definition's simple name.
            site: Where it is (its `qualified` is `Parent.member` for a member).
            package: The package of its file, when the language has one.
            by_name: Known by its simple name too. A member read from its type's body (`App.Version`)
                is not: a field `process` of some options type makes no doc's `process.argv` ours.
            package_level: Known as `package.name` (`cli.HelpFlag`). A Go method or field is not:
                `cli.App.Version`, never `cli.Version` (the package declares no such name).
        """
        qualified = site.qualified
        if by_name:
            _keep_first(self._symbols[name.rsplit(".", 1)[-1]], (site.path, qualified), site)
        forms = {qualified}
        if package:
            forms |= {f"{package}.{name}", f"{package}.{qualified}"} if package_level else {f"{package}.{qualified}"}
            self._packages.setdefault(package, site.path)
        for form in forms - {name}:
            _keep_first(self._qualified[form], (site.path, qualified), site)

    def _add_declared_members(self, path: str, payload: ChunkPayload) -> None:
        """What a declaration's body defines beside the parser's symbols: a Go type's fields, interface
        methods and embedded types; a script class's fields and an interface's members; a Go file
        outline's package vars and consts (the outlines are read once their lines can be placed)."""
        owner, kind = payload.symbol, payload.symbol_type
        if payload.language == GO_LANGUAGE:
            if owner and kind in GO_TYPE_KINDS:  # a Go type is no container: its chunk is its source
                body = go_type_body(payload.text, kind, starts_in_body=payload.window > 0)
                for member in body.members:
                    self._add_member(owner, member, Site(path, payload.start_line + member.offset), payload.package)
                self._embedded[(path, owner)].update(dict.fromkeys(body.embedded))
            if kind == "module":
                self._outlines.offer_outline((path, None), payload, _OutlineKind(kind, payload.package))
            else:  # every Go function, method and type is shown by the file's outline
                self._outlines.offer_member((path, None), payload)
                if owner and not payload.parent:
                    self._add_go_package_name(path, payload.package, owner)
        elif payload.language in SCRIPT_LANGUAGES:
            if owner and kind in SCRIPT_TYPE_KINDS:
                how = _OutlineKind(kind, payload.package, payload.window)
                self._outlines.offer_outline((path, owner), payload, how)
            if payload.parent:
                self._outlines.offer_member((path, payload.parent), payload)

    def _add_member(self, owner: str, member: DeclaredName, where: Site, package: str | None) -> None:
        """A member a declaration's body defines, as `Owner.member`, at the file and line of `where`."""
        site = SymbolSite(where.path, where.line, member.kind, sys.intern(f"{owner}.{member.name}"))
        self._add_site(member.name, site, package, by_name=False, package_level=False)

    def _add_go_package_name(self, path: str, package: str | None, name: str) -> None:
        """A package-level Go name of a library file (not a test's or a sample's)."""
        if package and not is_sample_path(path) and is_documented_go_package(path, package):
            self._go_packages[package].add(sys.intern(name))
            self._go_package_folders[package].add(path.rpartition("/")[0])

    def _add_outlined_names(self) -> None:
        """The names read from outlines, each at its file line, once every outlined symbol's lines are known."""
        for (path, owner), placed in self._outlines.placed():
            how = placed.kept
            if owner is None:
                for declared in go_package_names(placed.text):
                    site = SymbolSite(path, placed.lines[declared.offset], declared.kind, sys.intern(declared.name))
                    self._add_site(declared.name, site, how.package)
                    self._add_go_package_name(path, how.package, declared.name)
                continue
            for declared in script_type_members(placed.text, how.kind, starts_in_body=how.window > 0):
                self._add_member(owner, declared, Site(path, placed.lines[declared.offset]), how.package)

    def _add_getattr_hooks(self) -> None:
        """Each module's `__getattr__`, and each library class's (tests and samples proxy what they like),
        read from its windows joined back into one function."""
        for (path, qualified), windows in self._getattr_windows.items():
            ordered = [windows[index] for index in sorted(windows)]
            hook = read_hook(path, ordered[0][0], joined_windows([text for _, text in ordered]))
            if qualified == GETATTR:
                self._lazy_modules[path] = hook
            elif not is_sample_path(path):
                self._lazy_classes[qualified.rsplit(".", 2)[-2]].append(hook)

    def _add_identifiers(self, path: str, start_line: int, text: str) -> None:
        """Record the first line of each token in this chunk, where it beats what is known.

        Tokens are interned, so the global map and every file's token set share one string per token.
        """
        first_lines: dict[str, int] = {}
        # Set operations per line keep the Python-level loop to tokens not seen yet in this chunk.
        for index, line in enumerate(text.split("\n")):
            fresh = set(map(sys.intern, _TOKEN.findall(line))).difference(first_lines)
            for token in fresh:
                first_lines[token] = index
                if token[0] != "-" and ("." in token or "-" in token):
                    for part in _COMPOUND_PARTS.split(token):
                        first_lines.setdefault(sys.intern(part), index)
        if self._keep_file_tokens:
            _merge_into(self._file_tokens, path, frozenset(t for t in first_lines if _is_plain_member_name(t)))
        identifiers = self._identifiers
        for token, index in first_lines.items():
            current = identifiers.get(token)
            if current is not None and current.path < path:
                continue
            site = Site(path, start_line + index)
            if current is None or site < current:
                identifiers[token] = site

    def build(self) -> CodeFacts:
        """The gathered facts, built once: they take over the collector's maps rather than copy them."""
        directories = {str(parent) for path in self._files for parent in PurePosixPath(path).parents}
        directories.discard(".")
        import_modules = self._import_modules()
        self._add_outlined_names()
        self._add_getattr_hooks()
        symbols = _sorted_sites(self._symbols)
        bases = self._resolved_bases(import_modules)
        by_name: dict[str, list[str]] = defaultdict(list)
        for path in sorted(self._files | directories):
            by_name[path.rsplit("/", 1)[-1]].append(path)
        return CodeFacts(
            files=frozenset(self._files),
            code_files=frozenset(self._code_files),
            directories=frozenset(directories),
            by_name={name: tuple(paths) for name, paths in by_name.items()},
            symbols=symbols,
            qualified_symbols=_sorted_sites(self._qualified),
            modules=self._modules(),
            packages=self._packages_names(),
            programs=self._programs,
            identifiers=self._identifiers,
            last_modified=self._dates,
            directory_last_modified=self._directory_dates(),
            file_tokens=self._file_tokens,
            class_bases=bases,
            attached_members={owner: frozenset(members) for owner, members in self._attached.items()},
            dotted_strings=self._dotted_strings,
            retired_names=self._still_gone(),
            retired_strings={
                name: site for name, site in self._retired_strings.items() if name not in self._dotted_strings
            },
            forge_repos=frozenset(self._forge_repos),
            star_exports=frozenset(self._star_exports),
            file_bindings=self._bindings,
            bound_anywhere=frozenset().union(*self._bindings.values()),
            import_modules=import_modules,
            signatures={key: tuple(value) for key, value in self._signatures.items()},
            env_settings=self._env_settings,
            composed_names=forming_files(self._name_parts, self._upper_casing, self._joining),
            lazy_modules=self._lazy_modules,
            lazy_classes={name: tuple(hooks) for name, hooks in self._lazy_classes.items()},
            registered_members=registered_members(
                self._registrations,
                self._setting_attributes,
                lambda name: (site.path for site in symbols.get(name, ()) if site.symbol_type in _CLASS_TYPES),
                bases,
            ),
            ignored=self._ignore_files.build(directories),
            go_packages={package: frozenset(names) for package, names in self._go_packages.items()},
            module_factory_names=frozenset(
                name for path in self._module_factories for name in self._quoted_names[path]
            ),
            go_package_folders={package: frozenset(folders) for package, folders in self._go_package_folders.items()},
            flag_declarations=self._flags.build(self._bindings, self._files, self._code_files),
            whole_tree=self._whole_tree,
        )

    def _resolved_bases(self, import_modules: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
        """Bases of every class by simple name, read through the import aliases of the class's file.

        An alias of one of the repository's own names stands for that name (`SansioBlueprint` →
        `Blueprint`); an alias of another package's name becomes its dotted name
        (`RequestBase` → `werkzeug.wrappers.Request`), which no class here answers to.
        """
        own_roots = {module.split(".", 1)[0] for module in import_modules}
        bases: dict[str, dict[str, None]] = defaultdict(dict)
        for (_, name), embedded in sorted(self._embedded.items()):
            for base in embedded:
                # `*Command`, `cli.Command` of one of our Go packages, or another package's `sync.Mutex`.
                package, dot, simple = base.rpartition(".")
                bases[name][simple if dot and package in self._packages else base] = None
        for (path, name), raw in sorted(self._bases.items()):
            aliases = self._aliases.get(path, {})
            for base in raw:
                if base not in aliases:
                    bases[name][base] = None
                    continue
                module, original = aliases[base]
                own = module.startswith(".") or module.split(".", 1)[0] in own_roots
                bases[name][original if own else f"{module}.{original}"] = None
        return {name: tuple(found) for name, found in bases.items()}

    def _modules(self) -> dict[str, str]:
        """Every dotted suffix of a code file's or code folder's path: `pkg.mod`, `mod`, ..."""
        modules: dict[str, str] = {}
        code_dirs = {str(p) for f in self._code_files for p in PurePosixPath(f).parents} - {"."}
        for path in sorted(self._code_files | code_dirs):
            stem = str(PurePosixPath(path).with_suffix("")) if path in self._code_files else path
            segments = [s for s in stem.split("/") if s]
            if segments and segments[-1] == "__init__":
                segments = segments[:-1]
            if not all(re.fullmatch(r"[A-Za-z_][\w-]*", s) for s in segments):
                continue
            for start in range(len(segments)):
                modules.setdefault(".".join(segments[start:]), path)
        for package, path in self._packages.items():
            modules.setdefault(package, path)
        return modules

    def _import_modules(self) -> dict[str, str]:
        """Python modules by the name an import would use, from the top level or a `src/` folder.

        An empty `__init__.py` is never indexed (no chunk), yet it makes its folder a package: with the
        commit's whole tree known, its `__init__.py` files count too (`celery/bin/` is a package, so
        `celery.bin.base` is a module, and a name a doc puts in it is looked for there).
        """
        modules: dict[str, str] = {}
        inits = (
            {path for path in self._files if path.rsplit("/", 1)[-1] == "__init__.py"} if self._whole_tree else set()
        )
        package_files = self._code_files | inits
        for path in sorted(package_files):
            if not path.endswith(".py"):
                continue
            segments = path[: -len(".py")].split("/")
            if segments[0] in {"src", "lib"} and len(segments) > 1:
                segments = segments[1:]
            if any(segment.lower() in _SAMPLE_FOLDERS for segment in segments):
                continue
            package = segments[:-1]
            # Every folder on the way must be a package (hold an __init__.py), so `docs/conf.py` is not `docs.conf`.
            prefix = path[: len(path) - len("/".join(segments)) - len(".py")]
            if not all(
                f"{prefix}{'/'.join(package[: i + 1])}/__init__.py" in package_files for i in range(len(package))
            ):
                continue
            if segments[-1] == "__init__":
                segments = segments[:-1]
            if segments and all(re.fullmatch(r"[A-Za-z_]\w*", s) for s in segments):
                modules.setdefault(".".join(segments), path)
        return modules

    def _packages_names(self) -> frozenset[str]:
        """Every dotted suffix of a folder holding code, plus the roots of parser-given packages."""
        names = {package.split(".", 1)[0] for package in self._packages}
        for folder in {str(p) for f in self._code_files for p in PurePosixPath(f).parents} - {"."}:
            segments = folder.split("/")
            if any(segment.lower() in _SAMPLE_FOLDERS for segment in segments):
                continue  # docs/examples/flask is sample code, not a package docs can name
            if all(re.fullmatch(r"[A-Za-z_][\w-]*", s) for s in segments):
                names.update(".".join(segments[start:]) for start in range(len(segments)))
        return frozenset(names)

    def _directory_dates(self) -> dict[str, str]:
        newest: dict[str, tuple[datetime, str]] = {}
        for path, date in self._dates.items():
            parsed = parse_iso_date(date)
            if parsed is None or date is None:
                continue
            for parent in PurePosixPath(path).parents:
                key = str(parent)
                if key != "." and (key not in newest or parsed > newest[key][0]):
                    newest[key] = (parsed, date)
        return {folder: value for folder, (_, value) in newest.items()}


_BINDING = re.compile(
    r"^[ \t]*(?:self\.|cls\.|this\.)?([A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]+)?=(?!=)"  # x = …, self.x = …, x: T = …
    r"|^[ \t]+([A-Za-z_]\w*)[ \t]*:[ \t]*[\w\[\]., |\"']+[ \t]*$"  # a field: `name: str`
    r"|\b(?:self|cls|this)\.([A-Za-z_$][\w$]*)[ \t]*=(?!=)"
    r"|\bexports\.([A-Za-z_$][\w$]*)[ \t]*="
    r"|\b[A-Z][\w$]*(?:\.prototype)?\.([A-Za-z_$][\w$]*)[ \t]*=(?!=)"  # CancelToken.source = function …
    r"|^[ \t]*export[ \t]+(?:const|let|var|function|class|async function)[ \t]+([A-Za-z_$][\w$]*)",
    re.M,
)
_UNPACKED = re.compile(r"^[ \t]*([A-Za-z_]\w*(?:[ \t]*,[ \t]*[A-Za-z_]\w*)+)[ \t]*,?[ \t]*=(?!=)", re.M)
"""`counter, total = 0, 0`: each name of an unpacking assignment is bound."""
_ATOM = r"""[^()"'#]|"[^"\n]*"|'[^'\n]*'"""
_BRACKETED = re.compile(rf"\((?:{_ATOM}|\((?:{_ATOM}|\((?:{_ATOM})*\))*\))*\)")
"""A parenthesised group, three deep, strings inside it whole: a signature's or a call's arguments,
whose continuation lines (`loop, timeout=None):`) read like an unpacking but bind nothing."""
_SLOTS = re.compile(r"\b__slots__[ \t]*(?::[^=\n]*)?=[ \t]*(?:[(\[{]([^)\]}]*)|([^\n]*))")
"""`__slots__ = ("alpha", "beta")`: the instance attributes a class declares, as strings."""
_IMPORT_LINE = re.compile(r"^[ \t]*(?:from[ \t]+(\S+)[ \t]+)?import[ \t]+(\([^)]*\)|[^\n]+)", re.M)
_LINE_COMMENT = re.compile(r"[ \t]*#[^\n]*")
_QUOTED = re.compile(r"[\"']([A-Za-z_]\w*)[\"']")
_ALIASED = re.compile(r"\b([A-Za-z_]\w*)[ \t]+as[ \t]+([A-Za-z_]\w*)")
_OLD_MAJOR_FOLDER = re.compile(r"^v\d+$")
"""A package folder holding an older major version (`pydantic/v1/`), kept for users who pin it."""
_MODULE_FACTORY = re.compile(r"\bModuleType\(|\bsys\.modules\[[^\]\n]+\][ \t]*=(?!=)|\brecreate_module\(")
"""Code that makes a module at run time, so a module missing from the tree may still import."""
_ATTACHED = re.compile(
    r"^[ \t]*(?!(?:self|cls|this|exports|module|window|global|globalThis)\.)"
    r"(?:([A-Za-z_$][\w$]*)|__import__\([ \t]*[\"']([A-Za-z_][\w.]*)[\"'][ \t]*\))"  # or `__import__("a.b")`
    r"(?:\.prototype)?\.([A-Za-z_$][\w$]*)[ \t]*=(?!=)",
    re.M,
)
_DOTTED_STRING = re.compile(
    r"[\"'](?:([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)"
    r"|(?:\{[\w.]*\}|%s)((?:\.[A-Za-z_]\w*)+))[\"']"  # or a template: `'{self.namespace}.commands'`
)
DOTTED_TEMPLATE_ROOT = "{}"
"""How a dotted template's leading placeholder is kept among dotted_strings: `{}.commands`."""


def bound_names(text: str, *, outline: bool = False) -> set[str]:
    """Names a piece of code binds: assignments, fields, attributes, imports, exports, `__all__` entries;
    in an outline, also each name of an unpacking assignment and the `__slots__` entries.

    Args:
        text: Code text.
        outline: The text is a class's or a module's outline, whose own lines are its attributes
            (`counter, total = 0, 0`, `__slots__ = ("alpha",)`): its functions' bodies are left out,
            so a function's local unpacking (`value, params = …`) binds nothing of the class.

    Returns:
        The names.
    """
    names = {next(g for g in match.groups() if g) for match in _BINDING.finditer(text)}
    if outline:
        for match in _UNPACKED.finditer(_BRACKETED.sub("()", text)):
            names.update(name.strip() for name in match.group(1).split(","))
        for match in _SLOTS.finditer(text):
            names.update(_QUOTED.findall(match.group(1) or match.group(2) or ""))  # `__slots__ = ()` lists none
    text = _LINE_COMMENT.sub("", text.replace("\\\n", " "))  # `import a, \` goes on; a comment names nothing
    for match in _IMPORT_LINE.finditer(text):
        for part in match.group(2).strip("()").replace("\n", ",").split(","):
            words = part.split()
            if words and re.fullmatch(r"[A-Za-z_]\w*", words[-1]):
                names.add(words[-1])
    if "__all__" in text:
        start = text.index("__all__")
        names.update(_QUOTED.findall(text[start : text.find("]", start) + 1 or len(text)]))
    return names


def import_aliases(text: str) -> dict[str, tuple[str, str]]:
    """Names a `from … import … as …` binds under another name.

    Args:
        text: Code text.

    Returns:
        Alias → (the module imported from, the imported name): `SansioBlueprint` →
        (`.sansio.blueprints`, `Blueprint`).
    """
    aliases = {}
    text = _LINE_COMMENT.sub("", text.replace("\\\n", " "))
    for match in _IMPORT_LINE.finditer(text):
        if match.group(1) is None:
            continue  # `import a.b as c`: a module alias, not a class's
        for original, alias in _ALIASED.findall(match.group(2)):
            if alias != original:
                aliases[alias] = (match.group(1), original)
    return aliases


def attached_members(text: str) -> set[tuple[str, str]]:
    """(owner, member) of each statement assigning a member onto a name: `CancelToken.source = function …`.

    Args:
        text: Code text.

    Returns:
        The pairs (`X.prototype.y = …` gives (X, y), `__import__("m").y = …` gives (m, y)); assignments
        on self, this, exports and globals are left out.
    """
    # `__import__("a.b")` returns the top package `a`: that is what gets the member
    return {(owner or imported.split(".", 1)[0], member) for owner, imported, member in _ATTACHED.findall(text)}


def dotted_string_literals(text: str) -> list[tuple[int, str, bool]]:
    """(line offset, name, retired) of each dotted name written as a whole string literal (`"flask.commands"`).

    A template whose placeholder leads (`'{self.namespace}.commands'`, `'%s.multi'`) is given as
    `{}.commands`: the code forms such names with any root in front.

    A literal is retired when its line says the thing is gone ("'mocha.opts' is no longer supported",
    "was removed"): the code names it only to turn its users away.

    Args:
        text: Code text.

    Returns:
        The literals with their 0-based line offsets in the text, and whether each is retired.
    """
    found = []
    for match in _DOTTED_STRING.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.end())
        line = text[start : end if end >= 0 else len(text)]
        name = match.group(1) or DOTTED_TEMPLATE_ROOT + match.group(2)
        found.append((text.count("\n", 0, match.start()), name, _RETIRED.search(line) is not None))
    return found


_RETIRED = re.compile(
    r"\bno longer (?:supported|available|exists?|used|recognized|recognised|read)\b"
    r"|\b(?:has|have) been removed\b|\bwas removed\b|\bis not supported any ?more\b",
    re.I,
)


def _is_plain_member_name(token: str) -> bool:
    """Whether a token could be asked for as a file's public member: not dotted, not `_private`."""
    return token[0] != "_" and "." not in token


def joined_windows(texts: list[str]) -> str:
    """A symbol's source from its overlapping windows, in window order: each window's lines that the
    one before already ended with are dropped (the windows overlap by whole lines)."""
    lines: list[str] = []
    for text in texts:
        window = text.split("\n")
        overlap = next(
            (size for size in range(min(len(lines), len(window)), 0, -1) if lines[-size:] == window[:size]), 0
        )
        lines.extend(window[overlap:])
    return "\n".join(lines)


def is_sample_path(path: str) -> bool:
    """Tests, examples, benchmarks and docs: code whose names and strings are not the repository's API."""
    parts = path.lower().split("/")
    return bool(set(parts[:-1]) & _SAMPLE_FOLDERS) or parts[-1].startswith("test_") or "_test." in parts[-1]


def class_bases(signature: str) -> tuple[str, ...]:
    """The simple names of a class's bases from its declaration (`class A(b.B, C[int], metaclass=M)`).

    Args:
        signature: The declaration line(s).

    Returns:
        Base names without qualifiers or type arguments; keyword arguments (metaclass=) left out.
    """
    match = _BASES.search(signature)
    if match is None:
        return ()
    if match.group(2):
        return (match.group(2).rsplit(".", 1)[-1],)
    bases = []
    for raw in re.split(r",(?![^\[]*\])", match.group(1)):
        part = raw.strip()
        if not part or "=" in part or part.startswith("*"):
            continue
        bases.append(part.split("[", 1)[0].rsplit(".", 1)[-1].strip())
    return tuple(b for b in bases if b)


def _merge_into(by_path: dict[str, frozenset[str]], path: str, names: frozenset[str]) -> None:
    """Add a chunk's names to its file's: one exact-size frozenset per file (a file's chunks come in any order)."""
    known = by_path.get(path)
    if known is None:
        by_path[path] = names
    elif not known >= names:
        by_path[path] = known | names


def _sorted_sites(by_name: dict[str, dict[tuple[str, str], SymbolSite]]) -> dict[str, tuple[SymbolSite, ...]]:
    """Each name's sites sorted by place, emptying `by_name` on the way (its dicts go as their tuples come)."""
    return {name: tuple(sorted(by_name.pop(name).values())) for name in list(by_name)}


def _keep_first(sites: dict[tuple[str, str], SymbolSite], key: tuple[str, str], site: SymbolSite) -> None:
    """Keep the earliest line per (file, qualified name): windows of one symbol count once."""
    current = sites.get(key)
    if current is None or site.line < current.line:
        sites[key] = site
