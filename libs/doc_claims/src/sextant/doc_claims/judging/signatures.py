"""What a definition's declaration says: its parameter names, and a class's members and fields."""

from __future__ import annotations

import re

_SKIPPED = frozenset({"self", "cls", "/", "*", "this"})
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")
_STRING = re.compile(r'"""(?:.|\n)*?"""|\'\'\'(?:.|\n)*?\'\'\'|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`[^`]*`')
_COMMENT = re.compile(r"(?:^|(?<=[\s,(]))(?:#|//)[^\n]*|/\*.*?\*/", re.S)
_FIELD = re.compile(r"^\s+(?:self\.)?([A-Za-z_]\w*)\s*(?::[^=\n]+)?=|^\s+([A-Za-z_]\w*)\s*:\s*\S", re.M)


def parameter_names(signature: str, name: str) -> list[str] | None:
    """The parameter names of a declaration (`def f(self, a: int = 1, *, b)` → a, b).

    Args:
        signature: The declaration line(s).
        name: The defined name (the parameter list is the one right after it).

    Returns:
        Names in order (self/cls left out; destructured parameters skipped), or None when the
        declaration shows no parameter list.
    """
    inside = _parameter_list(signature, name)
    return None if inside is None else _split(inside)


def takes_any_keyword(signature: str, name: str) -> bool:
    """Whether a declaration takes keywords it does not name (`**kwargs`, `**options: Unpack[Opts]`).

    Args:
        signature: The declaration line(s).
        name: The defined name.

    Returns:
        True when its parameter list has a `**` catch-all: a parameter it dropped from the list may
        still be accepted there, so losing it is no news by itself.
    """
    inside = _parameter_list(signature, name)
    return inside is not None and any(part.strip().startswith("**") for part in _parts(inside))


def takes_any_argument(signature: str, name: str) -> bool:
    """Whether a declaration takes arguments it does not name: a `*args` or a `**kwargs` catch-all.

    Args:
        signature: The declaration line(s).
        name: The defined name.

    Returns:
        True when its parameter list has a starred catch-all (a bare `*` names no catch-all), or
        when the declaration shows no parameter list.
    """
    inside = _parameter_list(signature, name)
    if inside is None:
        return True
    return any(re.match(r"\*{1,2}\s*[A-Za-z_]", part.strip()) for part in _parts(inside))


def catch_all_name(signature: str, name: str) -> str | None:
    """The name of a declaration's `**` catch-all (`**kwargs` → `kwargs`), or None without one.

    Args:
        signature: The declaration line(s).
        name: The defined name.

    Returns:
        The catch-all's name.
    """
    inside = _parameter_list(signature, name)
    for part in _parts(inside or ""):
        text = part.strip()
        if text.startswith("**") and (match := _IDENTIFIER.match(text[2:].strip())) is not None:
            return match.group(0)
    return None


def declaration_end(source: str, name: str) -> int:
    """Where a definition's parameter list closes in its source (0 when it cannot be found).

    Args:
        source: The definition's source (decorators and declaration first).
        name: The defined name.

    Returns:
        The offset just past the list's `)`: the body's names start after it.
    """
    blanked = _STRING.sub(lambda m: " " * len(m.group(0)), source)
    match = re.search(rf"\b(?:def|function|func)\s+{re.escape(name)}\s*(?:\[[^\]]*\])?\s*\(", blanked)
    if match is None:
        return 0
    depth = 0
    for index in range(match.end() - 1, len(blanked)):
        if blanked[index] in "([{":
            depth += 1
        elif blanked[index] in ")]}":
            depth -= 1
            if depth == 0:
                return index + 1
    return 0


def _parameter_list(signature: str, name: str) -> str | None:
    signature = _STRING.sub('""', signature)  # a `)` inside a default or a `Doc("…")` closes nothing
    opening = None
    for match in re.finditer(rf"\b{re.escape(name)}\s*(?:\[[^\]]*\])?\s*\(", signature):
        opening = match.end() - 1
    if opening is None:
        return None
    depth = 0
    for index in range(opening, len(signature)):
        char = signature[index]
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return signature[opening + 1 : index]
    return None


def _parts(inside: str) -> list[str]:
    # Strings first (`Doc("The name, (if any)")` in an annotation holds commas and brackets), then
    # comments (`task_name=None,  # deprecated` inside the list).
    inside = _COMMENT.sub("", _STRING.sub('""', inside))
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for char in inside:
        if char in "([{<":
            depth += 1
        elif char in ")]}>":
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    parts.append("".join(current))
    return parts


def _split(inside: str) -> list[str]:
    names = []
    for part in _parts(inside):
        text = part.strip().lstrip("*&.").strip()
        if not text or text[0] in "{[" or text in _SKIPPED:
            continue
        if (match := _IDENTIFIER.match(text)) is not None and match.group(0) not in _SKIPPED:
            names.append(match.group(0))
    return names


def class_fields(source: str) -> set[str]:
    """Names a class body assigns or annotates at its own level (`name: str`, `size = 3`, `self.x = …`).

    Args:
        source: The class's source (or outline).

    Returns:
        Field and attribute names.
    """
    return {next(group for group in match.groups() if group) for match in _FIELD.finditer(source)}
