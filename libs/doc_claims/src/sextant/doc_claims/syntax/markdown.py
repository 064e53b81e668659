"""Mentions in Markdown (and plain text): inline code, fenced blocks, links to repository files."""

from __future__ import annotations

import bisect
import re

from sextant.doc_claims.claims.name_shapes import is_external
from sextant.doc_claims.syntax.code_blocks import block_mentions
from sextant.doc_claims.syntax.mentions import Mention, mask_spans

# Any indentation: MyST admonitions and list items nest fences deeper than CommonMark's three spaces.
_FENCE_OPEN = re.compile(r"^[ \t]*(`{3,}|~{3,})[ \t]*([^`\n]*)$")
_QUOTE = re.compile(r"^(?:[ \t]*>)+[ \t]?")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
_LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'(][^)]*)?\s*\)")
_REFERENCE_DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.M)
# MyST roles, Sphinx's roles in Markdown: {func}`pkg.f`, {py:class}`~pkg.C`.
_MYST_ROLE = re.compile(r"\{((?:[a-z]+:)?[a-z]+)\}`([^`]+)`")
# A code span stays within a line or runs onto the next one, never further: bounding it keeps a
# stray backtick from scanning the rest of the doc.
_INLINE_CODE = re.compile(r"(?<!`)(`{1,3})(?!`)([^\n]+?(?:\n[^\n]+?)?)(?<!`)\1(?!`)")


def markdown_mentions(text: str) -> list[Mention]:
    """Every mention in a Markdown doc, in document order.

    Args:
        text: The doc text.

    Returns:
        Fenced-block lines worth checking, relative links, and inline code spans (not those inside
        the text of an external link: a name behind a URL is about someone else's code).
    """
    mentions, text = _fenced_blocks(text)
    text = mask_spans(text, [comment.span() for comment in _HTML_COMMENT.finditer(text)])
    external: list[tuple[int, int]] = []
    for link in _LINK.finditer(text):
        target = link.group(3)
        if not target or is_external(target):
            external.append((link.start(2), link.end(2)))
        else:
            mentions.append(Mention(link.start(3), link.end(), target, "link"))
    for definition in _REFERENCE_DEFINITION.finditer(text):
        if not is_external(definition.group(1)):
            mentions.append(Mention(definition.start(1), definition.end(1), definition.group(1), "link"))
    roles = list(_MYST_ROLE.finditer(text))
    mentions += [Mention(role.start(2), role.end(), role.group(2), "role", role=role.group(1)) for role in roles]
    text = mask_spans(text, [role.span() for role in roles])
    for code in _INLINE_CODE.finditer(text):
        if _inside(code.start(), external):
            continue
        body = code.group(2)
        if "\n\n" in body:
            continue  # a stray backtick, not a span
        mentions.append(Mention(code.start(2), code.end(), body.replace("\n", " "), "inline"))
    return sorted(mentions, key=lambda m: m.offset)


def _inside(offset: int, spans: list[tuple[int, int]]) -> bool:
    """Whether an offset falls in one of the sorted, non-overlapping spans."""
    index = bisect.bisect_right(spans, (offset, float("inf"))) - 1
    return index >= 0 and spans[index][0] <= offset < spans[index][1]


def _fenced_blocks(text: str) -> tuple[list[Mention], str]:
    """Mentions of fenced code blocks (blockquoted ones too), and the text with them blanked out."""
    mentions: list[Mention] = []
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    # Each line without its blockquote markers (`> `), and how many characters those took.
    quoted = [_QUOTE.match(line) for line in lines]
    bare = [line[q.end() :].rstrip("\r\n") if q else line.rstrip("\r\n") for line, q in zip(lines, quoted, strict=True)]
    skip = [q.end() if q else 0 for q in quoted]
    index = 0
    spans: list[tuple[int, int]] = []
    while index < len(lines):
        opening = _FENCE_OPEN.match(bare[index])
        if opening is None:
            index += 1
            continue
        fence, info = opening.group(1), opening.group(2)
        close = re.compile(rf"^[ \t]*{fence[0]}{{{len(fence)},}}[ \t]*$")
        end = index + 1
        while end < len(lines) and not close.match(bare[end]):
            end += 1
        body = [(offsets[i] + skip[i], bare[i]) for i in range(index + 1, min(end, len(lines)))]
        mentions.extend(block_mentions(info, body))
        spans.append((offsets[index], offsets[min(end + 1, len(lines))]))
        index = end + 1
    return mentions, mask_spans(text, spans)
