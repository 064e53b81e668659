"""Mentions in a `.txt` doc: its markup is told by what it holds, not by its name.

A `.txt` doc is often reStructuredText under another extension (Sphinx sources of older projects,
`docs/src/*.txt`). Read as Markdown, its indented paragraphs (a definition's body, an admonition's
text) become indented code blocks and their names are lost; read as reST they are prose, and only
what follows `::` or a code directive is code. A `.txt` doc with a reST directive (`.. note::`) or
a hyperlink target (`.. _name: target`) is read as reST; any other as Markdown, which reads plain
prose and backticks alike.
"""

from __future__ import annotations

import re

from sextant.doc_claims.syntax.markdown import markdown_mentions
from sextant.doc_claims.syntax.mentions import Mention
from sextant.doc_claims.syntax.rst import rst_mentions

_RST_MARKUP = re.compile(r"^[ \t]*\.\.[ \t]+(?:[\w:-]+::|_[^:\n]+:)", re.M)


def plain_text_mentions(text: str) -> list[Mention]:
    """Every mention in a `.txt` doc, read as reStructuredText when it has reST markup, else as Markdown.

    Args:
        text: The doc text.

    Returns:
        The mentions, in document order.
    """
    if is_restructured_text(text):
        return rst_mentions(text)
    return markdown_mentions(text)


def is_restructured_text(text: str) -> bool:
    """Whether a doc of no telling extension holds reStructuredText markup (a directive or a link target).

    Args:
        text: The doc text.

    Returns:
        True when a line opens a reST directive (`.. sourcecode:: python`) or a target (`.. _api: api.txt`).
    """
    return _RST_MARKUP.search(text) is not None
