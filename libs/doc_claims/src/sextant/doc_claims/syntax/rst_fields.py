"""Parameter fields in the body of a reST API directive: each names a parameter of the directive's definition.

```
.. method:: add_route(method, path, handler)

   :param str endpoint: route name
```

documents `endpoint` of `add_route` on its own line, whatever the directive's signature says: a
field left behind when the definition lost its parameter is as stale as a signature that still
lists it. Each field (`:param [type] name:`, `:parameter`, `:arg`, `:argument`, `:key`,
`:keyword`, `:kwarg`, `:kwparam`, `:type name:`) of the directive's own body (not of a directive
nested in it, such as a class's methods) becomes a mention of the directive's definition on the
field's line, with the role `field:<directive>`: a claim that is news only when that definition lost
the field's parameter (judging/definition_changes), since whatever else it could say, the
directive's own line says.
"""

from __future__ import annotations

import re

from sextant.doc_claims.syntax.mentions import Mention

FIELD_ROLE = "field:"
"""The role prefix of a parameter field's mention (`field:method`)."""
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


def _depth(line: str) -> int:
    expanded = line.expandtabs()
    return len(expanded) - len(expanded.lstrip())
