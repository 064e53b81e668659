"""The definition behind a re-export or an alias: what `pytest.fail` or `attr.s` really declares.

A package's `__init__` often binds its API without defining it (`from _pytest.outcomes import fail`,
`from ._make import attributes` then `s = attributes`), so the name a doc writes has no declaration
of its own: its parameters are those of the definition the bindings lead to. This follows them at
the head, from the module the doc's dotted name qualifies, through `from … import … [as …]`
(relative or absolute, into this repository's own modules only), star imports, and plain
assignments (`s = attributes`, `attr = ib = attr`), to a function or class defined in a module of
ours. Only module-level statements count: an import inside a function or a `try` block may bind
something else at run time. Another package's name, or a chain longer than a few steps, leads
nowhere: then nothing is compared.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

_MAX_STEPS = 6
_FROM_IMPORT = re.compile(r"^from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(.+)$")
_PLAIN_IMPORT = re.compile(r"^import[ \t]+(.+)$")
_ASSIGNMENT = re.compile(r"^((?:[A-Za-z_]\w*[ \t]*=[ \t]*)+)([A-Za-z_][\w.]*)[ \t]*$")
_COMMENT = re.compile(r"[ \t]*#[^\n]*")
_NAME = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class AliasedDefinition:
    """The definition a doc's name is bound to, and how the bindings lead there."""

    path: str
    name: str
    """The definition's name in its file (`attributes` for `attr.s`)."""
    route: str
    """The bindings followed, for the evidence (`src/pytest/__init__.py imports fail from _pytest.outcomes`)."""


@dataclass(frozen=True)
class _Binding:
    module: str | None
    """The module imported from (absolute), or None for an assignment in the same module."""
    name: str
    """The name bound there (the original of an `as`, or an assignment's right-hand side)."""


ReadTexts = Callable[[set[tuple[str, str]]], Mapping[tuple[str, str], str]]
"""Reads the text of files, by (commit, path): one call per step, for every name followed."""
Defines = Callable[[str, str, str, str], bool]
"""Whether (commit, path, name, the file's text) is a function or class defined there."""


def aliased_definitions(
    names: Iterable[tuple[str, str]], modules: Mapping[str, str], read_texts: ReadTexts, defines: Defines
) -> dict[tuple[str, str], AliasedDefinition]:
    """Follow each dotted name from the module that qualifies it to the definition it is bound to.

    Args:
        names: (commit, dotted name as the doc writes it: `pytest.fail`, `attr.s`), to follow in
            that commit's files.
        modules: This repository's module import names → their files (`attr` → `attr/__init__.py`).
        read_texts: Reads files' texts.
        defines: Whether a file defines a name (at the head, the code facts say; at an older
            commit, its text).

    Returns:
        (commit, name) → the definition and the route, for names whose bindings lead to one of our
        functions or classes through at least one binding.
    """
    module_of = {path: module for module, path in modules.items()}
    states: dict[tuple[str, str], tuple[str, str, list[str]]] = {}
    for commit, name in dict.fromkeys(names):
        start = _start(name, modules)
        if start is not None:
            states[(commit, name)] = (*start, [])
    found: dict[tuple[str, str], AliasedDefinition] = {}
    texts: dict[tuple[str, str], str] = {}
    bindings: dict[tuple[str, str], dict[str, list[_Binding]]] = {}  # (commit, path) → module-level bindings
    for _ in range(_MAX_STEPS):
        if not states:
            break
        wanted = {(commit, path) for (commit, _), (path, _, _) in states.items() if (commit, path) not in texts}
        if wanted:
            read = read_texts(wanted)
            for spec in wanted:
                texts[spec] = read.get(spec, "")
                bindings[spec] = module_bindings(texts[spec], spec[1], module_of.get(spec[1], ""))
        following: dict[tuple[str, str], tuple[str, str, list[str]]] = {}
        for key, (path, bound, route) in states.items():
            commit = key[0]
            if route and defines(commit, path, bound, texts[(commit, path)]):
                found[key] = AliasedDefinition(path, bound, "; ".join(route))
                continue
            step = _next(path, bound, bindings[(commit, path)], modules)
            if step is not None:
                following[key] = (step[0], step[1], [*route, step[2]])
        states = following
    return found


def defined_in_text(name: str, text: str) -> bool:
    """Whether a module's text defines a function or class of that name at its top level.

    Args:
        name: The name.
        text: The module's source.

    Returns:
        True for a module-level `def`, `async def` or `class` of the name.
    """
    return re.search(rf"^(?:async[ \t]+)?(?:def|class)[ \t]+{re.escape(name)}\b", text, re.M) is not None


def _start(name: str, modules: Mapping[str, str]) -> tuple[str, str] | None:
    """(module file, bound name) where a dotted name starts: the module that qualifies it."""
    parts = name.split(".")
    if len(parts) < 2:
        return None
    path = modules.get(".".join(parts[:-1]))
    return None if path is None else (path, parts[-1])


def _next(
    path: str, name: str, bindings: Mapping[str, list[_Binding]], modules: Mapping[str, str]
) -> tuple[str, str, str] | None:
    """The (file, name) the last binding of `name` in `path` leads to, with a phrase for the route."""
    own = bindings.get(name)
    if not own:
        # Not bound by name: a star import may bring it, when the module it reads defines it.
        # Not bound by name: a module's only star import may bring it (of several, which one would
        # is not known without reading them all).
        stars = bindings.get("*", [])
        target = modules.get(stars[0].module or "") if len(stars) == 1 else None
        return None if target is None else (target, name, f"{path} imports * from {stars[0].module}")
    binding = own[-1]  # the module's last binding of the name wins, as at run time
    if binding.module is None:
        return None if binding.name == _MODULE else (path, binding.name, f"{path} binds {name} = {binding.name}")
    target = modules.get(binding.module)
    if target is None or f"{binding.module}.{binding.name}" in modules:
        return None  # another package's name, or a submodule rather than a definition
    renamed = f" as {name}" if binding.name != name else ""
    return target, binding.name, f"{path} imports {binding.name}{renamed} from {binding.module}"


_MODULE = ""
"""The bound name of a plain `import x`: a module, never a definition."""


def module_bindings(text: str, path: str, module: str) -> dict[str, list[_Binding]]:
    """The module-level imports and plain assignments of a Python module, by the name they bind.

    Args:
        text: The module's source.
        path: Its file (`attr/__init__.py`: a package, whose relative imports start in itself).
        module: Its import name (`attr`), to resolve relative imports; empty when unknown.

    Returns:
        Bound name → its bindings in source order; star imports under `*`.
    """
    package = module if path.endswith("/__init__.py") else module.rpartition(".")[0]
    bindings: dict[str, list[_Binding]] = {}
    for statement in _statements(text):
        if (match := _FROM_IMPORT.match(statement)) is not None:
            source = _absolute(match.group(1), package)
            for original, bound in _imported(match.group(2)):
                if source is not None:
                    bindings.setdefault(bound, []).append(_Binding(source, original))
        elif (match := _PLAIN_IMPORT.match(statement)) is not None:
            for part in match.group(1).split(","):
                if words := part.split():
                    bindings.setdefault(words[-1].split(".")[0], []).append(_Binding(None, _MODULE))
        elif (match := _ASSIGNMENT.match(statement)) is not None:
            value = match.group(2)
            for target in _NAME.findall(match.group(1)):
                if target != value:
                    # `s = attributes`; a dotted value (`x = mod.y`) is not followed.
                    bindings.setdefault(target, []).append(_Binding(None, value if "." not in value else _MODULE))
    return bindings


def _imported(names: str) -> list[tuple[str, str]]:
    """(original, bound name) of each part of an import list: `a`, `a as b`, `*`."""
    pairs = []
    for part in names.strip("() ").split(","):
        words = part.split()
        if words == ["*"]:
            pairs.append(("*", "*"))
        elif len(words) == 1 and _NAME.fullmatch(words[0]):
            pairs.append((words[0], words[0]))
        elif len(words) == 3 and words[1] == "as" and _NAME.fullmatch(words[0]) and _NAME.fullmatch(words[2]):
            pairs.append((words[0], words[2]))
    return pairs


def _absolute(source: str, package: str) -> str | None:
    """`._make` from package `attr` → `attr._make`; an absolute name stays as it is."""
    dots = len(source) - len(source.lstrip("."))
    if not dots:
        return source
    parts = package.split(".") if package else []
    if not parts or dots - 1 > len(parts):
        return None
    base = parts[: len(parts) - (dots - 1)]
    rest = source[dots:]
    return ".".join([*base, rest] if rest else base) or None


def _statements(text: str) -> list[str]:
    """Module-level statements, each on one line: continuations and parenthesised imports joined."""
    statements: list[str] = []
    current: list[str] = []
    depth = 0
    for raw in _COMMENT.sub("", text).split("\n"):
        if not current and (not raw or raw[0] in " \t"):
            continue  # indented: inside a block, not a module-level binding
        current.append(raw.strip())
        depth += raw.count("(") - raw.count(")")
        if depth > 0 or raw.rstrip().endswith("\\"):
            continue
        statements.append(" ".join(part.rstrip("\\").strip() for part in current))
        current, depth = [], 0
    return statements
