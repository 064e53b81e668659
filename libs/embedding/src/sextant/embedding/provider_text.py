"""What a hosted embedding provider is sent: the text with its secrets masked by its file's kind.

A provider reached over HTTP reads every chunk of every indexed repository, and every query; a key
committed by mistake would be copied to it. So each text is masked with the shared rules
(``sextant.secret_rules.redact_file_text``) before it leaves, the way the prompts and the hosted
reranker get it. The rules depend on the file's kind (a ``.env``'s unquoted values are literals, a
doc's inline ``NAME=value`` is one, in code only a quoted literal is): a chunk's dense text names its
file on a ``File: <path>`` line of its header (``sextant.parsing.embedding_text.dense_header``), and
that path chooses the rules. A text without one (a search or review query) is masked as code: the
credential shapes and quoted secret literals, never a guess that would mask a keyword argument.

Only this hosted path masks. The local model runs in our own process: its text never leaves the
machine, and its vectors are stored beside the raw chunk payloads our own store keeps anyway.
"""

from __future__ import annotations

import re

from sextant.secret_rules import redact_file_text

HEADER_LINES = 4
"""How many first lines of a text may hold the ``File:`` line (the header's title comes first, its
file second; the window's own lines, which could say anything, come after the header)."""
_FILE_LINE = re.compile(r"File: (?P<path>[^\n]+)")


def named_file(text: str) -> str | None:
    """The path a dense text's header names, or None for a text without that header.

    Args:
        text: An embedding text.

    Returns:
        The path on the first ``File: `` line among the first ``HEADER_LINES`` lines.
    """
    for line in text.split("\n", HEADER_LINES)[:HEADER_LINES]:
        found = _FILE_LINE.fullmatch(line)
        if found:
            return found.group("path")
    return None


def masked_for_provider(text: str) -> str:
    """The text as a hosted provider may read it.

    Args:
        text: A chunk's dense text or a query.

    Returns:
        The text with its secrets masked by the rules of the file its header names (code's without one).
    """
    return redact_file_text(named_file(text) or "", text)
