"""Mentions in AsciiDoc: monospace and passthrough literals, listing blocks, links and includes."""

from __future__ import annotations

import re

from sextant.doc_claims.claims.name_shapes import is_external
from sextant.doc_claims.syntax.code_blocks import block_mentions
from sextant.doc_claims.syntax.mentions import Mention, mask_spans

_DELIMITER = re.compile(r"^(-{4,}|\.{4,}|`{3,})[ \t]*$")
_SOURCE_ATTRIBUTE = re.compile(r"^\[(?:source|listing)?,?[ \t]*([\w.+-]*)[^\]]*\][ \t]*$")
_LINK_MACRO = re.compile(r"\b(link|xref|include|image|video|audio):{1,2}([^\s\[\]]+)\[([^\]]*)\]")
_CROSS_REFERENCE = re.compile(r"<<([^,>#\s]+\.(?:adoc|asciidoc))#?[^,>]*(?:,[^>]*)?>>")
_URL_MACRO = re.compile(r"\bhttps?://[^\s\[]+\[([^\]]*)\]")
_MONOSPACE = re.compile(r"(?<![\w`])(`{1,2})(?!`)(\+{0,2})(.+?)\2\1(?![\w`])")
_PASSTHROUGH = re.compile(r"(?<![\w+])(\+{1,2})([^\s+](?:[^+\n]*[^\s+])?)\1(?![\w+])")


def asciidoc_mentions(text: str) -> list[Mention]:
    """Every mention in an AsciiDoc doc, in document order.

    Args:
        text: The doc text.

    Returns:
        Listing-block lines worth checking, links/xrefs/includes to repository files, and monospace
        (`` `name` ``, `` `+name+` ``) or passthrough (`+name+`) literals outside external links.
    """
    mentions, text = _listing_blocks(text)
    spans: list[tuple[int, int]] = []
    for macro in _LINK_MACRO.finditer(text):
        target = macro.group(2)
        if is_external(target):
            spans.append((macro.start(), macro.end()))  # a name behind an external link is not ours
            continue
        mentions.append(Mention(macro.start(2), macro.end(), target, "link", role=macro.group(1)))
        spans.append((macro.start(), macro.start(3)))  # the link text may still hold literals
    text = mask_spans(text, spans)
    spans = []
    for reference in _CROSS_REFERENCE.finditer(text):
        mentions.append(Mention(reference.start(1), reference.end(), reference.group(1), "link"))
        spans.append((reference.start(), reference.end()))
    text = mask_spans(text, spans)
    text = mask_spans(text, [url.span() for url in _URL_MACRO.finditer(text)])  # external: not ours
    for pattern, group in ((_MONOSPACE, 3), (_PASSTHROUGH, 2)):
        spans = []
        for literal in pattern.finditer(text):
            mentions.append(Mention(literal.start(group), literal.end(), literal.group(group), "inline"))
            spans.append(literal.span())
        text = mask_spans(text, spans)
    return sorted(mentions, key=lambda m: m.offset)


def _listing_blocks(text: str) -> tuple[list[Mention], str]:
    """Mentions of `----` / `....` blocks (language from a `[source,lang]` line above), text blanked."""
    mentions: list[Mention] = []
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    spans: list[tuple[int, int]] = []
    index = 0
    while index < len(lines):
        opening = _DELIMITER.match(lines[index].rstrip("\r\n"))
        if opening is None:
            index += 1
            continue
        language = ""
        if index > 0 and (attribute := _SOURCE_ATTRIBUTE.match(lines[index - 1].strip())) is not None:
            language = attribute.group(1)
        delimiter = opening.group(1)
        end = index + 1
        while end < len(lines) and lines[end].rstrip("\r\n").rstrip() != delimiter:
            end += 1
        body = [(offsets[i], lines[i].rstrip("\r\n")) for i in range(index + 1, min(end, len(lines)))]
        mentions.extend(block_mentions(language, body))
        spans.append((offsets[index], offsets[min(end + 1, len(lines))]))
        index = end + 1
    return mentions, mask_spans(text, spans)
