"""What a JavaScript or TypeScript class or interface declares besides its methods with bodies.

The parser makes a symbol of each method with a body (and of a field holding a function); the rest
of a class stays in the class's outline, and a TypeScript interface is one symbol with its whole
body. A doc means those members as surely:

- a class field (`proxy = false`, `static defaultMaxListeners = 10`, `private reason: string;`,
  `readonly size: number;`) and a method declared without a body (`set(name: string): this;` in a
  `.d.ts` class, an overload);
- an interface's property and method signatures (`timeout?: number;`, `toJSON(): object;`), which is
  how a TypeScript package types its options (`AxiosRequestConfig.timeout`).

A member line is one at the body's own indentation (the first member's): deeper lines continue a
member, and an outline's `...` stands for a body already read. Index signatures (`[key: string]`),
call and construct signatures, `constructor` and `#private` names are no members a doc names.
"""

from __future__ import annotations

import re

from sextant.doc_claims.judging.declared_names import DeclaredName

SCRIPT_LANGUAGES = frozenset({"javascript", "typescript"})
SCRIPT_TYPE_KINDS = frozenset({"class", "interface"})
"""Symbol types of the script declarations whose bodies declare members."""

_HEADER_END = re.compile(r"\{\s*(?://.*)?$")
_MODIFIERS = r"(?:(?:static|readonly|public|private|protected|declare|abstract|override|accessor|async)\s+)*"
_MEMBER = re.compile(
    r"^" + _MODIFIERS + r"(?:(?:get|set)\s+(?=[A-Za-z_$]))?\*?\s*([A-Za-z_$][\w$]*)\s*[?!]?\s*(\(|<|:|=|;|,|$)"
)
_NOT_MEMBERS = frozenset({"constructor", "new"})


def script_type_members(text: str, kind: str, *, starts_in_body: bool) -> tuple[DeclaredName, ...]:
    """The members a class's outline or an interface's text declares, with their line offsets.

    Args:
        text: The chunk's text (`export interface AxiosRequestConfig {…}`, a class outline), or a window of it.
        kind: `class` or `interface`.
        starts_in_body: The text is a later window, which starts inside the body (no header).

    Returns:
        Each declared field or method (`field` when it holds a value or a type, else `method`).
    """
    lines = text.split("\n")
    first = 0
    if not starts_in_body:
        header = next((i for i, line in enumerate(lines) if _HEADER_END.search(line)), None)
        if header is None:
            return ()
        first = header + 1
    indent: str | None = None
    found: list[DeclaredName] = []
    for offset in range(first, len(lines)):
        line = lines[offset]
        stripped = line.strip()
        if not stripped or stripped.startswith(("//", "/*", "*", "@")) or stripped == "...":
            continue
        own = line[: len(line) - len(line.lstrip())]
        if indent is None:
            if not own:
                break  # the body's closing `}` at the top: no members
            indent = own
        if own != indent:
            if len(own) < len(indent):
                break  # the body's end
            continue  # a member's continuation
        match = _MEMBER.match(stripped)
        if match is None or match.group(1) in _NOT_MEMBERS:
            continue
        is_method = match.group(2) in {"(", "<"} or (kind == "class" and match.group(2) == "" and "(" in stripped)
        found.append(DeclaredName(offset, match.group(1), "method" if is_method else "field"))
    return tuple(found)
