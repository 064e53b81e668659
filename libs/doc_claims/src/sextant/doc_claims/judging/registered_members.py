"""Members a decorator registers onto a class at import: defined nowhere, yet there when the code runs.

A plugin-style API lets a class grow methods from elsewhere: `@Operations.register_operation("drop_table")`
above another class makes the registering class method build a function and `setattr(cls, name, …)` it
onto `Operations`. No file defines `Operations.drop_table`, but every program that imports the package
can call it, and a doc naming it is right.

So a registration counts when both halves are in the code: a decorator call on one of our classes
whose first argument is a literal name (`@Owner.method("name", …)`), and a `setattr` onto the class
under a computed name (`setattr(cls, name, …)`, not a literal one) in the file of that class or of one
of its bases, which is how the registering method installs what it is given. A decorator on a class
that never sets computed attributes (`@app.route("/x")`, `@Registry.add("k")` filling a dict) adds
no member, so a removed method stays contradicted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Set
from dataclasses import dataclass

from sextant.doc_claims.judging.class_ancestry import class_ancestry

_REGISTERING_DECORATOR = re.compile(
    r"^[ \t]*@([A-Z]\w*)\.(\w+)\(\s*[\"']([A-Za-z_]\w*)[\"']",
    re.M,
)
_COMPUTED_SETATTR = re.compile(r"\bsetattr\(\s*(?:cls|self)\s*,\s*(?![\"'])[A-Za-z_]")


@dataclass(frozen=True, order=True, slots=True)
class Registration:
    """Where a decorator registers a member onto a class, and through which method."""

    path: str
    line: int
    method: str
    """The registering class method (`register_operation`)."""


def decorator_registrations(text: str) -> list[tuple[int, str, str, str]]:
    """(line offset, owner, method, member) of each decorator call that may register a member.

    Args:
        text: Code text.

    Returns:
        `@Operations.register_operation("drop_table")` gives (offset, Operations, register_operation, drop_table).
    """
    found = []
    line, counted_to = 0, 0
    for match in _REGISTERING_DECORATOR.finditer(text):  # lines counted forward once, not from the top each time
        line += text.count("\n", counted_to, match.start())
        counted_to = match.start()
        found.append((line, match.group(1), match.group(2), match.group(3)))
    return found


def sets_computed_attributes(text: str) -> bool:
    """Whether code sets an attribute on its class or instance under a computed name (`setattr(cls, name, …)`)."""
    return _COMPUTED_SETATTR.search(text) is not None


def registered_members(
    registrations: Mapping[str, Mapping[str, Registration]],
    setting_files: Set[str],
    class_files: Callable[[str], Iterable[str]],
    class_bases: Mapping[str, tuple[str, ...]],
) -> dict[str, dict[str, Registration]]:
    """The registrations whose owner (or a base of it) sets computed attributes in its own file.

    Args:
        registrations: Owner class → member → where a decorator registers it.
        setting_files: Files that set computed attributes on a class or instance.
        class_files: Class name → the files that define a class of that name.
        class_bases: Class name → its bases' simple names.

    Returns:
        The registrations kept, in the same shape.
    """
    return {
        owner: dict(members)
        for owner, members in registrations.items()
        if _installs_attributes(owner, setting_files, class_files, class_bases)
    }


def _installs_attributes(
    owner: str,
    setting_files: Set[str],
    class_files: Callable[[str], Iterable[str]],
    class_bases: Mapping[str, tuple[str, ...]],
) -> bool:
    return any(path in setting_files for name in class_ancestry(owner, class_bases) for path in class_files(name))
