"""The top level of a bracketed argument or parameter list, shared by the rules that read one."""

from __future__ import annotations


def top_level(code: str, start: int) -> str:
    """The text of an argument list from just after its `(` to its `)`, nested brackets blanked out.

    Args:
        code: Source text.
        start: Offset just after the list's opening bracket.

    Returns:
        The list's text, each character inside a nested bracket (the brackets too) replaced by a space,
        so only the top level's names and separators are left where they were.
    """
    depth = 0
    out = []
    for char in code[start:]:
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0:
            out.append(char)
            continue
        out.append(" ")
    return "".join(out)
