"""The parameters a reST API directive documents: its signature's and its body's parameter fields.

```
.. method:: add_route(method, path, handler)

   :param str endpoint: route name
```

documents `endpoint` of `add_route` on its own line, whatever the directive's signature says: a
field left behind when the definition lost its parameter is as stale as a signature that still
lists it. Each field (`:param [type] name:`, `:parameter`, `:arg`, `:argument`, `:key`,
`:keyword`, `:kwarg`, `:kwparam`, `:type name:`) of the directive's own body (not of a directive
nested in it, such as a class's methods) becomes a mention of the directive's definition on the
field's line, with the role `field:<directive>`: a claim that is news when that definition lost
the field's parameter (judging/definition_changes) or does not take it at all
(judging/documented_parameters), since whatever else it could say, the directive's own line says.

A hand-written directive's signature documents parameters too, one per slot, on the line where the
slot is written (a signature goes on over lines ending in `\\`):

```
.. class:: ClientSession(base_url=None, *, \\
                         conn_timeout=None)
```

claims `conn_timeout` of `ClientSession` on the second line, with the role `parameter:<directive>`.
An `auto*` directive's signature is Sphinx's reading of the code, so only hand-written ones count.
"""

from __future__ import annotations

import re

from sextant.doc_claims.syntax.mentions import Mention

FIELD_ROLE = "field:"
"""The role prefix of a parameter field's mention (`field:method`)."""
PARAMETER_ROLE = "parameter:"
"""The role prefix of a signature slot's mention (`parameter:class`)."""
_SIGNED_DIRECTIVES = frozenset({"function", "method", "class", "py:function", "py:method", "py:class"})
"""Hand-written callable directives, whose signature the doc's author wrote."""
_CALLABLE_DIRECTIVES = frozenset(
    {"function", "method", "class", "autofunction", "automethod", "autoclass", "py:function", "py:method", "py:class"}
)
PARAMETER_FIELD = re.compile(
    r"^[ \t]*:(?:param|parameter|arg|argument|key|keyword|kwarg|kwparam|type)[ \t]+"
    r"(?:[^:\n]*[ \t])?\**([A-Za-z_]\w*)[ \t]*:"
)
"""A parameter field line; group 1 is the parameter's name (after any type: `:param str path:`)."""


def parameter_field_mentions(text: str, directive: re.Match[str], qualified: str) -> list[Mention]:
    """The mentions of a directive's definition on its parameter-field lines.

    Args:
        text: The doc text.
        directive: The directive's match (group 1 its name, group 2 its argument).
        qualified: The definition the directive documents, as the directive's own mention names it
            (its signature, if any, is dropped here).

    Returns:
        One mention per field line of the directive's own body.
    """
    if directive.group(1) not in _CALLABLE_DIRECTIVES:
        return []
    name = qualified.split("(", 1)[0].strip()
    if not name:
        return []
    line_start = text.rfind("\n", 0, directive.start()) + 1
    indent = _depth(text[line_start : directive.end()])
    continued = text[line_start : directive.end()].rstrip().endswith("\\")  # the signature goes on
    found: list[Mention] = []
    body_indent: int | None = None
    start = text.find("\n", directive.end()) + 1
    while 0 < start < len(text):
        end = text.find("\n", start)
        line = text[start : end if end >= 0 else len(text)]
        line_start, start = start, (end + 1 if end >= 0 else len(text))
        if continued:
            continued = line.rstrip().endswith("\\")
            continue
        if not line.strip():
            continue
        depth = _depth(line)
        if depth <= indent:
            break
        body_indent = depth if body_indent is None else body_indent
        if depth == body_indent and (field := PARAMETER_FIELD.match(line)) is not None:
            role = FIELD_ROLE + directive.group(1)
            found.append(Mention(line_start + field.start(1), line_start + field.end(1), name, "role", role=role))
    return found


def signature_parameter_mentions(text: str, directive: re.Match[str], qualified: str) -> list[Mention]:
    """The mentions of a directive's definition at each parameter its signature names.

    Args:
        text: The doc text.
        directive: The directive's match (group 1 its name, group 2 its argument).
        qualified: The definition the directive documents, with the signature as written.

    Returns:
        One mention per named slot (`*args`, `**kwargs`, `*` and `/` left out), spanning the
        parameter's name, whose text is the definition's name.
    """
    name = qualified.split("(", 1)[0].strip()
    opening = text.find("(", directive.start(2), directive.end(2))
    if directive.group(1) not in _SIGNED_DIRECTIVES or not name or opening < 0:
        return []
    end = directive.end(2)
    while text[directive.start(2) : end].rstrip().endswith("\\") and end < len(text):
        following = text.find("\n", end + 1)
        end = following if following >= 0 else len(text)
    role = PARAMETER_ROLE + directive.group(1)
    return [
        Mention(start, start + len(parameter), name, "role", role=role)
        for start, parameter in _slots(text, opening + 1, end)
    ]


_SLOT_NAME = re.compile(r"[\s\\\[]*([A-Za-z_]\w*)\s*(?=[:=,\[\])]|$)")
"""A slot's parameter name after any spaces, line continuations and optional marks (`[, timeout]`)."""


def _slots(text: str, start: int, end: int) -> list[tuple[int, str]]:
    """(offset, name) of each top-level slot of the parameter list that starts at `start`."""
    slots: list[tuple[int, str]] = []
    depth, quote, slot = 0, "", start
    for index in range(start, end):
        char = text[index]
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "({":
            depth += 1
        elif char in ",)" and depth == 0:
            slots.extend(_slot(text, slot, index))
            slot = index + 1
            if char == ")":
                return slots
        elif char in ")}":
            depth -= 1
    return []  # no closing bracket: a signature cut short is read as none


def _slot(text: str, start: int, end: int) -> list[tuple[int, str]]:
    match = _SLOT_NAME.match(text, start, end)
    if match is None or match.group(1) in {"self", "cls"}:
        return []
    return [(match.start(1), match.group(1))]


def _depth(line: str) -> int:
    expanded = line.expandtabs()
    return len(expanded) - len(expanded.lstrip())
