"""Qualified names resolved fully: `pkg.module.Name` in that module, `Class.member` on that class or its bases.

A stale qualifier is news even when the bare name lives elsewhere: `acme.session.Session` after
`Session` moved to `acme.auth` sends readers to the wrong module. So the qualifier decides where to
look, and only there:

- A qualifier that is a module of this repository (`acme.session`): the member must be defined in
  that module's file or named in it (an import, a re-export, an `__all__` entry), or be one of the
  names its module-level `__getattr__` tests for and returns something for (see lazy_members).
- A qualifier that is a class of this repository (after a module, one that module defines or
  binds: `acme.tasks.control.inspect` does not mean a class `control` of `acme/bin/`): the member
  must be defined on the class or on one of its bases (followed through this repository's
  classes), be named in the file of one of them (an attribute set in `__init__`), or be registered
  onto one of them at import by a decorator (see registered_members). A base from
  another package may supply anything: then the claim is unverifiable rather than contradicted;
  but an enum base (`IntEnum`) supplies only its own few members (`name`, `value`), so
  `WSCloseCode.message_too_big` beside `MESSAGE_TOO_BIG = 1009` is contradicted.
- A qualifier that is one of this repository's Go packages (`cli.HelpFlag`): the member must be
  declared at that package's level, not be a field or method of one of its types. When one of its
  types has the member (`cli.EnableBashCompletion` beside `App.EnableBashCompletion`), the code
  itself shows the qualifier wrong: Go resolves `cli.X` only among the package's own declarations,
  so the name does not compile, however loosely the doc wrote it.
- A package part the repository knows nothing by (`jinja2.Environment.parse` when the code lives in
  `src/jinja/` and no file binds `jinja2`) does not become right because the class after it has the
  member: the caller decides it as an unknown package, which the history may show renamed or
  removed. (A member the class lacks stays the class's miss: `acmee.worker.Connection.retry`.)
- Any other qualifier is left to the caller (another library's name, most often).

Classes of tests, examples, benchmarks and docs are not the API a doc's `Class.member` means.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from sextant.doc_claims.judging.class_ancestry import MAX_BASE_DEPTH
from sextant.doc_claims.judging.code_facts import CodeFacts, SymbolSite, is_sample_path
from sextant.doc_claims.syntax.code_blocks import is_standard_library

_STANDARD_BASES: dict[str, frozenset[str]] = {
    form: frozenset(name for klass in base.__mro__ for name in vars(klass))  # dir() hides `name`, `value`
    for base in (enum.Enum, enum.IntEnum, enum.Flag, enum.IntFlag)
    for form in (base.__name__, f"enum.{base.__name__}")
}
"""Standard-library bases whose members are known (the enum family): a member none of them has and
the class does not define is not there. Any other base from elsewhere may supply anything."""


@dataclass(frozen=True)
class QualifiedLookup:
    """How a qualified name fared."""

    found: bool
    evidence: str
    path: str | None = None
    site: SymbolSite | None = None
    foreign_base: str | None = None
    """A base class from outside the repository that may define the member."""
    module: str | None = None
    """The module the member was looked for in (`acme.session`), when the qualifier is a module."""
    owner_class: str | None = None
    """The class the member was looked for on, when the qualifier is one of the repository's classes."""
    firm: bool = False
    """The code proves the qualifier wrong (the member is there, under another owner): a contradiction
    however loosely the doc wrote the name."""
    missing_module: str | None = None
    """The module the doc names that the package lacks (`acme.websocket`): the head cannot say by
    itself, so only history (a removed definition in the package, or the module's deletion) makes it
    a contradiction; without it the claim is unverifiable, however firmly the doc wrote it."""


def resolve_qualified(name: str, facts: CodeFacts) -> QualifiedLookup | None:  # noqa: PLR0911 - one exit per way of finding it
    """Resolve `qualifier.member` where the qualifier is one of this repository's modules or classes.

    Args:
        name: A dotted name (at least two segments).
        facts: The code facts.

    Returns:
        The outcome, or None when the qualifier is neither a module nor a class of the repository.
    """
    parts = name.split(".")
    member = parts[-1]
    for cut in range(len(parts) - 1, 0, -1):
        module = ".".join(parts[:cut])
        path = facts.import_modules.get(module)
        if path is None:
            continue
        rest = parts[cut:]
        if len(rest) == 1:
            return _in_module(module, path, member, facts)
        if len(rest) == 2 and (missing := _missing_submodule(module, path, rest[0], member, facts)) is not None:
            return missing
        if _in_module(module, path, rest[0], facts).found and _class_sites(rest[-2], facts):
            return member_of_class(rest[-2], member, facts, qualifier=".".join(parts[:-1]))
        # An attribute of an object (`flask.request.files`): its type is not known here. Nor is that of
        # a name the module does not bind (`acme.tasks.control` when only `acme/bin/` has a class `control`).
        return None
    if (moved := _class_beside_module_tail(parts, facts)) is not None:
        return moved
    if len(parts) == 2 and (declared := facts.go_packages.get(parts[0])) is not None:
        return _in_go_package(parts[0], member, declared, facts)
    qualifier = parts[-2]
    lookup: QualifiedLookup | None = None
    if member in facts.attached_members.get(qualifier, ()):
        lookup = _attached(qualifier, member, facts)
    elif _class_sites(qualifier, facts):
        lookup = member_of_class(qualifier, member, facts, qualifier=".".join(parts[:-1]))
    if lookup is not None and lookup.found and len(parts) > 2 and _unknown_package(parts[0], facts):
        return None  # `jinja2.Environment.parse` with no package jinja2: the class does not vouch for it
    return lookup


def _missing_submodule(package: str, path: str, name: str, member: str, facts: CodeFacts) -> QualifiedLookup | None:
    """`acme.websocket.MSG_CLOSE` when package acme has no module, folder or binding `websocket`.

    A module-like (lower-case) name after one of our packages, which no file of the package defines or
    binds and for which the package's folder holds no file or folder of that name of any kind (`.py`,
    `.pyx`, a compiled extension, a sub-package), names a module the repository does not have at the
    head. Then:

    - a member that is one of our classes (CamelCase), defined elsewhere, is a stale qualifier, as
      the same path written as an import string is (`celery.worker.autoscaler.Autoscaler`: the class
      lives in `celery/worker/autoscale.py`);
    - a member the head does not define is looked for in the package's past (history), where a
      removed module shows up with the commit that removed it, however many examples still mention
      the old name; a module history never had leaves the claim unverifiable (a `from .x import *`
      in the package could supply the name, and only history tells a removed module from that);
    - any other member (a function or attribute of the same name elsewhere: a compatibility module
      made at import may forward it) is left to the bare-name rules.

    Decided only when the facts hold the commit's whole git tree: an index of some files cannot say a
    file is absent.
    """
    if not (facts.whole_tree and path.endswith("/__init__.py") and name.islower() and name.isidentifier()):
        return None
    folder = path.removesuffix("__init__.py")
    if _package_has(folder, name, facts):
        return None
    missing = f"package {package} ({folder.rstrip('/')}/) has no module {name}"
    if member[:1].isupper() and (classes := _class_sites(member, facts)):
        home = classes[0]
        return QualifiedLookup(
            False,
            f"{missing}; class {member} is defined in {home.path}:{home.line}",
            home.path,
            module=f"{package}.{name}",
            firm=True,
        )
    if any(not is_sample_path(site.path) for site in facts.symbols.get(member, ())):
        return None
    return QualifiedLookup(False, missing, path, module=package, missing_module=f"{package}.{name}")


def _package_has(folder: str, name: str, facts: CodeFacts) -> bool:
    """Whether a package folder holds a file or folder of that name (even one not indexed), or its
    `__init__.py` binds it (an alias, an import), supplies it lazily, or the package defines it, or
    code that makes modules at run time names it (celery's compatibility modules: `'registry'`)."""
    prefix = folder + name
    if any(other.startswith(prefix) and other[len(prefix) : len(prefix) + 1] in {".", "/"} for other in facts.files):
        return True
    init = folder + "__init__.py"
    hook = facts.lazy_modules.get(init)
    return (
        name in facts.module_factory_names
        or name in facts.file_bindings.get(init, frozenset())
        or (hook is not None and name in hook.supplied)
        or any(site.path.startswith(folder) for site in facts.symbols.get(name, ()))
    )


def _class_beside_module_tail(parts: list[str], facts: CodeFacts) -> QualifiedLookup | None:
    """`helpers.AccessLogger.LOG_FORMAT`: one of our classes through a module written by its last parts.

    Docs often drop a module's package (`helpers` for `aiohttp.helpers`). When the class after it is
    one of ours and the only module of that tail does not bind it, the class moved elsewhere: a stale
    qualifier, as `aiohttp.helpers.AccessLogger` written out would be. A tail of several modules, a
    standard-library name (`json.JSONDecoder`) or a lower-case member (`client.get`: most often the
    doc's own variable) is left to the other rules.
    """
    for cut in range(len(parts) - 2, 0, -1):
        tail, cls = ".".join(parts[:cut]), parts[cut]
        if is_standard_library(tail) or not cls[:1].isupper() or not _class_sites(cls, facts):
            continue
        modules = [module for module in facts.import_modules if module.endswith("." + tail)]
        if len(modules) != 1:
            continue
        module = modules[0]
        path = facts.import_modules[module]
        if _in_module(module, path, cls, facts).found:
            return None  # the module has it: the ordinary class look-up decides the member
        home = _class_sites(cls, facts)[0].path
        return QualifiedLookup(
            False,
            f"module {module} ({path}) has no {cls}; class {cls} is defined in {home}",
            path,
            module=module,
        )
    return None


def _unknown_package(root: str, facts: CodeFacts) -> bool:
    """Whether nothing of the repository goes by this first part of a dotted name: no folder, module,
    symbol or binding (an alias such as `import numpy as np` is a binding, so `np` is known)."""
    return not (
        root in facts.packages or root in facts.modules or root in facts.symbols or root in facts.bound_anywhere
    )


def _attached(owner: str, member: str, facts: CodeFacts) -> QualifiedLookup:
    sites = facts.symbols.get(owner, ())
    path = sites[0].path if sites else None
    where = f" (defined in {path})" if path else ""
    return QualifiedLookup(True, f"assigned as {owner}.{member} = …{where}", path)


def _in_go_package(package: str, member: str, declared: frozenset[str], facts: CodeFacts) -> QualifiedLookup:
    """`cli.HelpFlag`: what a doc names through one of our Go packages must be declared at its package
    level (a function, type, var or const), not be a field or method of one of its types."""
    if member in declared:
        return QualifiedLookup(True, f"declared at the package level of Go package {package}", None)
    owners = sorted(
        (key.split(".")[1], sites[0])
        for key, sites in facts.qualified_symbols.items()
        if key.startswith(f"{package}.") and key.endswith(f".{member}") and key.count(".") == 2
    )  # `cli.App.EnableBashCompletion`: package, type, member
    if not owners:
        return QualifiedLookup(False, f"Go package {package} declares no {member}", None, module=package)
    owner, site = owners[0]
    return QualifiedLookup(
        False,
        f"Go package {package} declares no {member}: {member} is a {site.symbol_type} of {owner}"
        f" ({site.path}:{site.line}), not of the package (write {package}.{owner}.{member})",
        site.path,
        module=package,
        firm=True,
    )


def _in_module(module: str, path: str, member: str, facts: CodeFacts) -> QualifiedLookup:
    files = [path]
    folder = path.rsplit("/", 1)[0] + "/" if path.endswith("/__init__.py") else None
    for site in facts.symbols.get(member, ()):
        if site.path == path or (folder is not None and site.path.startswith(folder)):
            return QualifiedLookup(
                True, f"defined in {site.path}:{site.line} ({site.symbol_type} {site.qualified})", site.path, site
            )
    for file in files:
        if member in facts.file_bindings.get(file, frozenset()):
            return QualifiedLookup(True, f"bound in {file} (module {module})", file)
        if (hook := facts.lazy_modules.get(file)) is not None and member in hook.supplied:
            return QualifiedLookup(
                True, f"supplied by the module-level __getattr__ of {file}:{hook.line} (module {module})", file
            )
        if file in facts.star_exports:
            return QualifiedLookup(
                True, f"{file} re-exports whole modules or replaces itself at import: {member} may be one of them", file
            )
    if member in facts.attached_members.get(module, ()):
        # `__import__("pytest").config = …` in a plugin's hook: the module gets it at run time. (A plain
        # `x.member = …` has a dotted module's key only for a top-level module: `pytest.config = …`.)
        return QualifiedLookup(True, f"assigned onto module {module} at run time", path)
    return QualifiedLookup(False, f"module {module} ({files[0]}) has no {member}", files[0], module=module)


def _class_sites(name: str, facts: CodeFacts) -> list[SymbolSite]:
    return [
        s
        for s in facts.symbols.get(name, ())
        if s.symbol_type in {"class", "struct", "interface", "record"} and not is_sample_path(s.path)
    ]


def _on_class(name: str, member: str, sites: list[SymbolSite], facts: CodeFacts) -> QualifiedLookup | None:
    """The member as one of our classes defines, attaches or sets it, or None."""
    for site in facts.qualified_symbols.get(f"{name}.{member}", ()):
        return QualifiedLookup(
            True, f"defined in {site.path}:{site.line} ({site.symbol_type} {site.qualified})", site.path, site
        )
    if member in facts.attached_members.get(name, ()):
        return _attached(name, member, facts)
    for hook in facts.lazy_classes.get(name, ()):
        if member in hook.supplied:
            return QualifiedLookup(True, f"supplied by {name}.__getattr__ ({hook.path}:{hook.line})", hook.path)
    if (registered := facts.registered_members.get(name, {}).get(member)) is not None:
        return QualifiedLookup(
            True,
            f"registered onto {name} at import by @{name}.{registered.method}('{member}')"
            f" ({registered.path}:{registered.line})",
            registered.path,
        )
    for site in sites:
        if member in facts.file_bindings.get(site.path, frozenset()):
            return QualifiedLookup(True, f"set in {site.path}, where class {name} is defined", site.path)
    return None


def member_of_class(cls: str, member: str, facts: CodeFacts, *, qualifier: str) -> QualifiedLookup:
    """Look a member up on a class of this repository and its bases.

    Args:
        cls: The class's simple name.
        member: The member's name.
        facts: The code facts.
        qualifier: How the doc wrote the class (for the evidence).

    Returns:
        Found (with where) or not (with why, and a foreign base when one may supply it).
    """
    seen: set[str] = set()
    frontier = [cls]
    foreign: str | None = None
    for _ in range(MAX_BASE_DEPTH):
        following: list[str] = []
        for name in frontier:
            if name in seen:
                continue
            seen.add(name)
            sites = _class_sites(name, facts)
            found: QualifiedLookup | None = None
            if sites:
                found = _on_class(name, member, sites, facts)
                following.extend(facts.class_bases.get(name, ()))
            elif name in _STANDARD_BASES:  # an enum base supplies only its own few members
                if member in _STANDARD_BASES[name]:
                    found = QualifiedLookup(True, f"{member} comes from base class {name} (standard library)", None)
            elif name != cls and name not in {"object", "Generic", "Protocol", "ABC"}:
                foreign = foreign or name
            if found is not None:
                return found
        frontier = following
        if not frontier:
            break
    if not _class_sites(cls, facts):
        return QualifiedLookup(False, f"no class {cls} in the code", None)
    if foreign is not None:
        return QualifiedLookup(
            False, f"{qualifier} has no {member}; it may come from base class {foreign}", None, foreign_base=foreign
        )
    return QualifiedLookup(
        False,
        f"{qualifier} has no member {member} (nor do its bases)",
        _class_sites(cls, facts)[0].path,
        owner_class=cls,
    )
