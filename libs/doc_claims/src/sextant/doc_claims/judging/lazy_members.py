"""Names a module or a class answers through `__getattr__`: there when asked for, defined nowhere.

A module-level `def __getattr__(name)` (PEP 562) is how a package keeps a deprecated name working
(`if name == "Instance": warn(…); return InstanceDummy`) or loads submodules lazily; a class's
`__getattr__` proxies another object (`mark.slow`, `hook.pytest_runtest_setup`). Two cases follow:

- The names the hook itself tests for and then returns something (`name == "Instance"`,
  `name in ("a", "b")`, read from the function's own syntax tree) are supplied: a doc naming them
  is right, even after the plain definition was removed (that is what a deprecation shim is for).
- Any other name under such a module or class may be supplied by what the hook computes, which the
  code text does not show, when the hook is open-ended (a computed lookup, a proxy): an absent one
  is unverifiable, not contradicted, unless the history shows the commit that removed its definition
  (then the hook is not what the doc relies on, and the claim keeps its alarm). A hook that raises
  for every name but its literal ones (`raise AttributeError(...)` after the tests) supplies nothing
  else, so a misspelt or never-exported name under it stays contradicted.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sextant.doc_claims.judging.class_ancestry import class_ancestry

if TYPE_CHECKING:
    from sextant.doc_claims.judging.code_facts import CodeFacts

GETATTR = "__getattr__"


@dataclass(frozen=True, slots=True)
class GetattrHook:
    """A `__getattr__` of a module or a class: where, what it supplies, and whether it stops there."""

    path: str
    line: int
    supplied: frozenset[str]
    """The literal names it tests for and returns something for."""
    open_ended: bool
    """Whether it may return for other names too (a computed lookup, a proxy); False when every other
    name reaches a `raise` (`raise AttributeError(name)` after the literal tests)."""


def read_hook(path: str, line: int, function_text: str) -> GetattrHook:
    """Read a `__getattr__` from its source.

    Args:
        path: Its file.
        line: Its first line.
        function_text: The function's source (`def __getattr__(name): …`), indented or not.

    Returns:
        The hook; one whose text does not parse (a window of a long function) supplies no literal
        name and is open-ended, since nothing shows where it stops.
    """
    try:
        tree = ast.parse(textwrap.dedent(function_text))
    except SyntaxError:
        return GetattrHook(path, line, frozenset(), open_ended=True)
    function = next((node for node in tree.body if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)), None)
    if function is None or not function.args.args:
        return GetattrHook(path, line, frozenset(), open_ended=True)
    argument = function.args.args[-1].arg  # `self, name` on a class, `name` on a module
    names: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.If) and _returns(node.body):
            names.update(_compared_names(node.test, argument))
    return GetattrHook(path, line, frozenset(names), open_ended=_open_ended(function.body, argument))


def _open_ended(body: list[ast.stmt], argument: str) -> bool:
    """Whether a name none of the literal tests matches can still be returned something for."""
    for statement in body:
        if isinstance(statement, ast.Raise):
            return False
        if isinstance(statement, ast.If) and _compared_names(statement.test, argument):
            if statement.orelse:
                return _open_ended(statement.orelse, argument)
            continue  # a literal name's branch: the others go on below it
        if any(isinstance(node, ast.Return) and node.value is not None for node in ast.walk(statement)):
            return True
    return True  # falling off the end answers None for any name


def _returns(body: list[ast.stmt]) -> bool:
    """Whether a branch hands something back (a return before any raise at its own level)."""
    for statement in body:
        if isinstance(statement, ast.Raise):
            return False
        if isinstance(statement, ast.Return) and statement.value is not None:
            return True
    return any(isinstance(node, ast.Return) and node.value is not None for s in body for node in ast.walk(s))


def _compared_names(test: ast.expr, argument: str) -> set[str]:
    """`name == "A"`, `"A" == name`, `name in ("A", "B")`, joined by `or`: the literal names."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return {name for value in test.values for name in _compared_names(value, argument)}
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return set()
    left, right = test.left, test.comparators[0]
    if isinstance(test.ops[0], ast.Eq):
        pair = (left, right) if _is_argument(left, argument) else (right, left)
        if _is_argument(pair[0], argument) and isinstance(pair[1], ast.Constant) and isinstance(pair[1].value, str):
            return {pair[1].value}
    if (
        isinstance(test.ops[0], ast.In)
        and _is_argument(left, argument)
        and isinstance(right, ast.Tuple | ast.List | ast.Set)
    ):
        return {e.value for e in right.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    return set()


def _is_argument(node: ast.expr, argument: str) -> bool:
    return isinstance(node, ast.Name) and node.id == argument


def lazy_member_reason(scope_path: str | None, owner_class: str | None, facts: CodeFacts) -> str | None:
    """Why a name absent from a module or class of ours may still be answered by its `__getattr__`, or None.

    Args:
        scope_path: The file of the module the name was looked for in (None when not a module's).
        owner_class: The class it was looked for on (None when not a class's).
        facts: The code at the judged commit.

    Returns:
        The reason, for the evidence; None when neither has an open-ended `__getattr__` (one that
        raises for every name but its literal ones supplies nothing else).
    """
    if scope_path is not None and (hook := facts.lazy_modules.get(scope_path)) is not None and hook.open_ended:
        return f"{scope_path} answers other names at import through its module-level __getattr__ (line {hook.line})"
    if owner_class is None:
        return None
    for name, hook in class_hooks(owner_class, facts):
        if hook.open_ended:
            whose = "its" if name == owner_class else f"its base {name}'s"
            return f"{owner_class} answers other attributes through {whose} __getattr__ ({hook.path}:{hook.line})"
    return None


def class_hooks(cls: str, facts: CodeFacts) -> list[tuple[str, GetattrHook]]:
    """The `__getattr__` hooks of a class of ours and of its bases (followed through our classes).

    Args:
        cls: The class's simple name.
        facts: The code facts.

    Returns:
        (the class that defines it, the hook), nearest first.
    """
    return [
        (name, hook) for name in class_ancestry(cls, facts.class_bases) for hook in facts.lazy_classes.get(name, ())
    ]
