"""Mentions in reStructuredText: literals, Sphinx roles and directives, code blocks, file links."""

from __future__ import annotations

import re

from sextant.doc_claims.claims.name_shapes import is_external, looks_like_path
from sextant.doc_claims.claims.shell_commands import reads_as_command
from sextant.doc_claims.syntax.code_blocks import block_mentions
from sextant.doc_claims.syntax.mentions import Mention, mask_spans
from sextant.doc_claims.syntax.rst_fields import parameter_field_mentions, signature_parameter_mentions

_CODE_DIRECTIVE = re.compile(r"^([ \t]*)\.\.[ \t]+(?:code-block|code|sourcecode|prompt)::[ \t]*(\S*)", re.M)
_HISTORY_DIRECTIVE = re.compile(
    r"^([ \t]*)\.\.[ \t]+(?:versionadded|versionchanged|deprecated|versionremoved)::[^\n]*$", re.M
)
# Comments (`.. anything` that is no directive, target, substitution or footnote) and to-do notes
# are the writer's notes to themselves, never claims.
_COMMENT = re.compile(r"^([ \t]*)\.\.(?:[ \t]+(?![\w:.-]+::)(?!_)(?!\|)(?!\[)[^\n]*|[ \t]*$)", re.M)
_TODO_DIRECTIVE = re.compile(r"^([ \t]*)\.\.[ \t]+todo::[^\n]*$", re.M)
# The indent is taken whole (`(?![ \t])`): backing off one space would let an indented
# `.. warning::` pass the `..` test and open a literal block at the margin, blanking the rest of its body.
_LITERAL_BLOCK = re.compile(r"^([ \t]*)(?![ \t])(?!\.\.)[^\n]*::[ \t]*$", re.M)
# Directives whose argument is a claim: files they pull in, env vars and options they document.
_CLAIM_DIRECTIVE = re.compile(
    r"^[ \t]*\.\.[ \t]+(include|literalinclude|image|figure|envvar|option|program|automodule|"
    r"autoclass|autofunction|automethod|autoattribute|py:function|py:class|py:method|py:attribute|function|method|"
    r"class|attribute)::[ \t]*(\S[^\n]*)$",
    re.M,
)
# Sphinx's default-domain API directives (`.. method::`): hand-written entries, claimed as ones whose absence
# contradicts nothing (see the symbol roles in claims.extraction).
_DECLARED = {name: f"declared:{name}" for name in ("function", "method", "class", "attribute")}
_MEMBER_DIRECTIVES = {"method", "automethod", "py:method", "attribute", "autoattribute", "py:attribute"}
_CLASS_DIRECTIVE = re.compile(r"^([ \t]*)\.\.[ \t]+(?:py:|auto)?class::[ \t]*([\w.]+)")
_ROLE = re.compile(r"(?<![\w`]):((?:[a-z]+:)?[a-z]+):`([^`]+)`")
_LITERAL = re.compile(r"(?<!`)``(?!`)([^`]+?)``(?!`)")
_HYPERLINK = re.compile(r"`([^`<]*)<([^`>]+)>`__?")
_TARGET = re.compile(r"^[ \t]*\.\.[ \t]+_[^:]+:[ \t]+(\S+)[ \t]*$", re.M)
_INTERPRETED = re.compile(r"(?<![`:\w])`(?!`)([^`\n]+)`(?![`_])")


def rst_mentions(text: str) -> list[Mention]:
    """Every mention in a reStructuredText doc, in document order.

    Args:
        text: The doc text.

    Returns:
        Code-block lines worth checking, roles (`:func:` ...), claim-making directives, literals,
        single-backtick interpreted text, and links to repository files.
    """
    mentions, text = _blocks(text)
    for directive in _CLAIM_DIRECTIVE.finditer(text):
        qualified = _qualified(text, directive)
        mentions.append(
            Mention(
                directive.start(2),
                directive.end(2),
                qualified,
                "role",
                role=_DECLARED.get(directive.group(1), directive.group(1)),
            )
        )
        mentions.extend(signature_parameter_mentions(text, directive, qualified))
        mentions.extend(parameter_field_mentions(text, directive, qualified))
    text = mask_spans(text, [directive.span() for directive in _CLAIM_DIRECTIVE.finditer(text)])
    for pattern, form in ((_ROLE, "role"), (_HYPERLINK, "link"), (_LITERAL, "inline")):
        spans = []
        for match in pattern.finditer(text):
            mentions.extend(_span_mention(match, form))
            spans.append(match.span())
        text = mask_spans(text, spans)
    for target in _TARGET.finditer(text):
        if not is_external(target.group(1)) and looks_like_path(target.group(1)):
            mentions.append(Mention(target.start(1), target.end(1), target.group(1), "link"))
    for interpreted in _INTERPRETED.finditer(text):
        mentions.append(
            Mention(interpreted.start(1), interpreted.end(), interpreted.group(1), "inline", role="interpreted")
        )
    return sorted(mentions, key=lambda m: m.offset)


def _qualified(text: str, directive: re.Match[str]) -> str:
    """A directive's argument; a method's undotted name prefixed with the class whose body holds it.

    `.. method:: add_static(prefix, path)` indented under `.. class:: UrlDispatcher` documents
    `UrlDispatcher.add_static`, as Sphinx files it.
    """
    argument = directive.group(2).strip()
    if directive.group(1) not in _MEMBER_DIRECTIVES or "." in argument.split("(", 1)[0]:
        return argument
    line_start = text.rfind("\n", 0, directive.start()) + 1
    indent = _depth(text[line_start : directive.end()])
    for line in reversed(text[:line_start].split("\n")):
        if not line.strip() or _depth(line) >= indent:
            continue
        opener = _CLASS_DIRECTIVE.match(line)
        return f"{opener.group(2)}.{argument}" if opener is not None else argument
    return argument


def _depth(line: str) -> int:
    expanded = line.expandtabs()
    return len(expanded) - len(expanded.lstrip())


def _span_mention(match: re.Match[str], form: str) -> list[Mention]:
    if form == "role":
        return [Mention(match.start(2), match.end(), match.group(2), "role", role=match.group(1))]
    if form == "link":
        target = match.group(2).strip()
        # `text <name>`_ may name a reference target rather than a file: only path shapes count.
        if is_external(target) or not looks_like_path(target):
            return []
        return [Mention(match.start(2), match.end(), target, "link")]
    return [Mention(match.start(1), match.end(), match.group(1), "inline")]


def _blocks(text: str) -> tuple[list[Mention], str]:
    """Mentions of code blocks and `::` literal blocks; the text with them (and history notes) blanked."""
    mentions: list[Mention] = []
    spans: list[tuple[int, int]] = []
    for note in [*_COMMENT.finditer(text), *_TODO_DIRECTIVE.finditer(text)]:
        _, stop = _indented_body(text, note.end(), len(note.group(1).expandtabs()))
        spans.append((note.start(), max(stop, note.end())))
    for note in _HISTORY_DIRECTIVE.finditer(text):
        # versionadded/versionchanged/deprecated notes record history, like a changelog.
        _, stop = _indented_body(text, note.end(), len(note.group(1).expandtabs()))
        spans.append((note.start(), max(stop, note.end())))
    for pattern, has_language in ((_CODE_DIRECTIVE, True), (_LITERAL_BLOCK, False)):
        for opening in pattern.finditer(text):
            if any(start <= opening.start() < stop for start, stop in spans):
                continue
            language = opening.group(2) if has_language else ""
            body, stop = _indented_body(text, opening.end(), len(opening.group(1).expandtabs()))
            found = block_mentions(language, body)
            if not has_language and not any(mention.form == "shell" for mention in found):
                found += _unprompted_commands(body)
            mentions.extend(found)
            spans.append((opening.end(), stop))
    return mentions, mask_spans(text, spans)


def _unprompted_commands(body: list[tuple[int, str]]) -> list[Mention]:
    """The command lines of a `::` literal block that shows no prompt (`flask --app=hello run`), which
    would otherwise read as output; continuation lines (`\\`) are joined (see reads_as_command)."""
    commands: list[Mention] = []
    pending: tuple[int, str] | None = None
    for offset, line in body:
        start = offset + len(line) - len(line.lstrip())
        pending = (pending[0], f"{pending[1]} {line.strip()}") if pending is not None else (start, line.strip())
        if pending[1].endswith("\\"):
            pending = (pending[0], pending[1][:-1].rstrip())
            continue
        if reads_as_command(pending[1]):
            commands.append(Mention(pending[0], pending[0] + len(pending[1]), pending[1], "shell"))
        pending = None
    return commands


def _indented_body(text: str, start: int, indent: int) -> tuple[list[tuple[int, str]], int]:
    """Lines after a block opener that are indented deeper than it (options and blanks skipped)."""
    body: list[tuple[int, str]] = []
    offset = text.find("\n", start)
    if offset < 0:
        return body, len(text)
    offset += 1
    stop = offset
    while offset < len(text):
        end = text.find("\n", offset)
        end = len(text) if end < 0 else end
        line = text[offset:end]
        depth = len(line.expandtabs()) - len(line.expandtabs().lstrip())
        if line.strip() and depth <= indent:
            break
        if line.strip() and not (not body and line.strip().startswith(":")):
            body.append((offset, line))
        stop = end
        offset = end + 1
    return body, stop
