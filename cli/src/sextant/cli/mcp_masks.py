"""What an MCP answer may show of a repository: its text with the secrets masked, as a prompt shows it.

The agent on the other side of the MCP server is most often a hosted model, and what we answer goes
into its context (and its provider's logs). So every repository text an answer carries — search
snippets, review context chunks, doc-claim refs and evidence — goes through the shared rules
(``sextant.secret_rules``) by its file's kind, the way the reviewer masks its prompt and the hosted
reranker's documents. The change an agent hands ``review_context`` is masked before its words become
a query a hosted embedder or reranker reads (``secret_rules.redact_change``, as a ``ReviewRequested`` is).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from sextant.search import SearchHit
from sextant.secret_rules import redact_file_text


def masked_hits(hits: Iterable[SearchHit]) -> list[SearchHit]:
    """Search hits with their snippets masked by the rules of each hit's file.

    Args:
        hits: Hits as the searcher made them.

    Returns:
        The hits, in order; a hit without a secret is returned as it is.
    """
    masked = []
    for hit in hits:
        snippet = redact_file_text(hit.path, hit.snippet)
        masked.append(hit if snippet == hit.snippet else msgspec.structs.replace(hit, snippet=snippet))
    return masked


def masked_chunk_text(path: str, text: str) -> str:
    """A context chunk's text as the review prompt shows it.

    Args:
        path: The chunk's file.
        text: Its text.

    Returns:
        The masked text.
    """
    return redact_file_text(path, text)
