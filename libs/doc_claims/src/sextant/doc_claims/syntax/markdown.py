"""Mentions in Markdown (and plain text), read with a CommonMark parser (markdown-it-py).

A real parser settles what regular expressions kept getting wrong: an indented code block is code
(not prose with odd spacing), an escaped backtick opens no code span, a backtick inside a fenced
block or an HTML comment is not a span, and link targets come out resolved (reference links
included). The parser gives block tokens their line ranges; inline pieces are located in the
source by searching forward within their block, so each mention keeps its true offset and the
sentence around it can still be read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any
from urllib.parse import unquote

from markdown_it import MarkdownIt
from markdown_it.token import Token

from sextant.doc_claims.claims.name_shapes import FORGE_FILE, is_external
from sextant.doc_claims.syntax.code_blocks import block_mentions
from sextant.doc_claims.syntax.mentions import Mention, newline_lines

# MyST roles, Sphinx's roles in Markdown: {func}`pkg.f` is a text `{func}` then a code span.
_MYST_ROLE_TAIL = re.compile(r"\{((?:[a-z]+:)?[a-z]+)\}$")
_MYST_DIRECTIVE = re.compile(r"^\{([\w:-]+)\}\s*(.*)$")
_COLON_FENCE = re.compile(r"^[ \t]*:{3,}.*$", re.M)
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([^`\n]*)$")


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def markdown_mentions(text: str) -> list[Mention]:
    """Every mention in a Markdown doc, in document order.

    Args:
        text: The doc text.

    Returns:
        Code-block lines worth checking (fenced and indented blocks), links to repository files,
        MyST roles, and inline code spans (not those inside the text of an external link: a name
        behind a URL is about someone else's code).
    """
    lines = newline_lines(text)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    mentions: list[Mention] = []
    env: dict[str, Any] = {}
    # MyST colon fences (`:::{tip}` … `:::`) are not CommonMark: blanked, their body reads as the
    # blocks it holds (blanking keeps every offset).
    parsed = _COLON_FENCE.sub(lambda m: " " * len(m.group(0)), text)
    for token in _parser().parse(parsed, env):
        if token.map is None:
            continue
        first, last = token.map
        if token.type == "fence":
            body = _body(lines, starts, token.content, range(first + 1, last - 1))
            mentions.extend(block_mentions(_language(token.info), body))
        elif token.type == "code_block":
            mentions.extend(_indented_block(_body(lines, starts, token.content, range(first, last))))
        elif token.type == "inline" and token.children:
            mentions.extend(_inline(token.children, text, starts[first], starts[min(last, len(lines))]))
    mentions.extend(_reference_definitions(text, env.get("references", {})))
    return sorted(mentions, key=lambda m: m.offset)


def _indented_block(body: list[tuple[int, str]]) -> list[Mention]:
    """An indented code block; one holding a whole fence (a MyST admonition's body) is that fence."""
    if body and (opening := _FENCE.match(body[0][1])) is not None:
        closed = len(body) > 1 and body[-1][1].strip().startswith(opening.group(1))
        return block_mentions(_language(opening.group(2)), body[1 : -1 if closed else None])
    return block_mentions("", body)


def _reference_definitions(text: str, references: dict[str, Any]) -> list[Mention]:
    """`[label]: target` lines that point into the repository (used by a link or not)."""
    mentions = []
    for reference in references.values():
        href = unquote(str(reference.get("href", "")))
        if not href or is_external(href):
            continue
        found = re.search(rf"^ {{0,3}}\[[^\]]+\]:[ \t]*<?{re.escape(href)}", text, re.M)
        if found is not None:
            mentions.append(Mention(found.end() - len(href), found.end(), href, "link"))
    return mentions


def _language(info: str) -> str:
    """The block's language: `python`, or the argument of a MyST directive (`{code-block} python`)."""
    directive = _MYST_DIRECTIVE.match(info.strip())
    if directive is None:
        return info
    name, argument = directive.groups()
    return argument if name in {"code-block", "code", "sourcecode", "code-cell"} else name


def _body(lines: Sequence[str], starts: Sequence[int], content: str, numbers: range) -> list[tuple[int, str]]:
    """(offset in the doc, text) of each body line; the parser's content has markers and indent removed."""
    body: list[tuple[int, str]] = []
    for number, line in zip(numbers, content.split("\n"), strict=False):
        if number >= len(lines):
            break
        raw = lines[number]
        column = raw.find(line) if line else 0
        body.append((starts[number] + max(column, 0), line))
    return body


def _inline(children: list[Token], text: str, block_start: int, block_end: int) -> list[Mention]:
    """Mentions among one inline block's pieces, located in the source from left to right."""
    mentions: list[Mention] = []
    cursor = block_start
    external_depth = 0
    previous_text = ""
    for child in children:
        if child.type == "link_open":
            href = unquote(str(child.attrs.get("href", "")))  # the parser percent-encodes; the doc did not
            external = not href or is_external(href)
            external_depth += external
            # A link into the repository, or to a file on the forge (ours if the forge repository is this one).
            if not external or FORGE_FILE.match(href):
                at = _find(text, href, cursor, block_end)
                mentions.append(Mention(at, at + len(href), href, "link"))
        elif child.type == "image":
            src = unquote(str(child.attrs.get("src", "")))
            if src and not is_external(src):
                at = _find(text, src, cursor, block_end)
                mentions.append(Mention(at, at + len(src), src, "link"))
        elif child.type == "link_close":
            external_depth = max(0, external_depth - 1)
        elif child.type == "code_inline":
            at = _find(text, child.content, cursor, block_end)
            cursor = at + len(child.content)
            role = _MYST_ROLE_TAIL.search(previous_text)
            if role is not None:
                mentions.append(Mention(at, cursor, child.content, "role", role=role.group(1)))
            elif external_depth == 0:
                mentions.append(Mention(at, cursor + len(child.markup), child.content, "inline"))
        elif child.type == "text" and child.content:
            found = text.find(child.content, cursor, block_end)
            if found >= 0:
                cursor = found + len(child.content)
        previous_text = child.content if child.type == "text" else ""
    return mentions


def _find(text: str, piece: str, cursor: int, end: int) -> int:
    """Where a piece starts at or after the cursor within its block; the cursor when it was rewritten
    by the parser (a span over two lines reads as one, an href is percent-encoded)."""
    found = text.find(piece, cursor, end)
    if found < 0 and piece:
        found = text.find(piece.split(maxsplit=1)[0], cursor, end)
    return found if found >= 0 else cursor
