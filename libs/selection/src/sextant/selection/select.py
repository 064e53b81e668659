"""select_analysis_chunks: the context behind an analysis, chosen from a payload-only scroll.

The rules (docs/analysis.md, "Selection"), in the order they apply:

1. Seeds. Root README* files and root build manifests are offered first in their kind's stream
   (a README.md is a doc, package.json is code), taking turns chunk by chunk. They obey the same
   per-file cap and count against the same budgets as any chunk: "always included" means first in
   line. So every seed file's first chunk is picked whenever its kind's budget has a slot per seed
   file: a README needs a doc cap of one (a limit of 5 or more), a manifest one free code slot.
2. Budget. Docs take at most doc_cap(limit) = floor(limit x DOC_SHARE) (16 of 80); code fills
   the rest, so spare doc budget spills to code.
3. Diversity. Within a kind, top-level directories take turns one chunk at a time (root files are
   one directory); a file gives at most MAX_CHUNKS_PER_FILE chunks.
4. Recency. Within a directory, newest files first (by lastModifiedAt), undated files after every
   dated one. Within a file, chunks whose own lines have a known date (symbol-level recency,
   `symbol_last_modified_at`) go first, newest first; the rest go top of file first. Ties break
   on path and chunk content, never on scroll order, so the same index always gives the same
   selection.

When code is scarcer than its share, docs fill the remainder beyond the cap, and when even the
capped pool (every file at MAX_CHUNKS_PER_FILE) is smaller than the limit, further chunks of the
same files fill it (code first). In short: the caps decide which chunks win, never how many are
returned; a selection holds min(limit, chunks in the repo) chunks. Why:

- The doc cap exists so that docs cannot crowd code out of the sample. Once every selectable code
  chunk is in, an extra doc crowds out nothing; it only replaces an empty slot. The analyzer still
  frames docs as possibly outdated, with age notes, and the Documentation Accuracy section exists
  to weigh them, so a doc-heavy repository (a spec, a handbook) is analysed from what it holds.
- The design returns everything for a repository with fewer chunks than the limit (caps are no-ops
  there). A strict cap above that size would make the selection shrink as the repository grows
  by one chunk: 79 chunks of docs and a little code gives 79, 81 would give 16 docs plus the code.
  With "caps never leave slots empty", tiny-repo pass-through is a consequence, not a special case.
- The per-file cap is a breadth rule: it gives way only when the capped pool is smaller than the
  limit, which needs fewer files than the limit (fewer than limit / MAX_CHUNKS_PER_FILE when every
  file is long). Breadth is exhausted there, and more of a big file beats empty slots.

Doc or code comes from sextant.doc_rules.chunk_kind(path), not from the payload's stored `kind`, so
a change to DOC_EXTENSIONS applies at once instead of after a re-index (the indexer skips unchanged
blobs, so stored kinds could lag for ever).

The median code date is the lower median over code files' newest dates (sextant.doc_rules), taken
over the whole repository, not over the picked chunks.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_rules import median_date
from sextant.secret_rules import redact_file_text
from sextant.selection.budget import DEFAULT_PAGE_SIZE, MAX_CHUNKS_PER_FILE, doc_cap
from sextant.selection.inventory import FileChunks, Inventory
from sextant.selection.payload_source import PayloadSource
from sextant.selection.result import SelectedChunk, Selection
from sextant.selection.streams import Offer, offer_order, take


def select_analysis_chunks(
    store: PayloadSource, repo_key: str, limit: int, *, page_size: int = DEFAULT_PAGE_SIZE
) -> Selection:
    """Select the chunks behind an analysis (ANALYSIS_LIMIT) or a summary (SUMMARY_LIMIT).

    Args:
        store: The chunk store; its errors propagate unchanged (selection has no failure of its own).
        repo_key: Subject-safe key of the repository.
        limit: How many chunks to select (ANALYSIS_LIMIT or SUMMARY_LIMIT).
        page_size: Payloads per scroll page.

    Returns:
        The selection and the repository's median code-file date.
    """
    return select_from_payloads(store.scroll_payloads(repo_key, page_size=page_size), limit)


def select_from_payloads(payloads: Iterable[ChunkPayload], limit: int) -> Selection:
    """Select from payloads already at hand, by the rules in this module's docstring.

    Args:
        payloads: Every chunk payload of one repository, in any order.
        limit: How many chunks to select; 0 selects none.

    Returns:
        The selection and the repository's median code-file date.

    Raises:
        ValueError: When limit is negative.
    """
    return select_for_limits(payloads, [limit])[0]


def select_for_limits(payloads: Iterable[ChunkPayload], limits: Sequence[int]) -> list[Selection]:
    """Several selections (the analysis's and the summary's) from one pass over the payloads.

    The pass keeps what the largest limit needs, which holds everything a smaller limit would have
    kept, in the same order: each selection equals the one `select_from_payloads` makes alone.

    Args:
        payloads: Every chunk payload of one repository, in any order (read once).
        limits: How many chunks each selection takes; 0 selects none.

    Returns:
        One selection per limit, in the order given.

    Raises:
        ValueError: When a limit is negative.
    """
    for limit in limits:
        if limit < 0:
            raise ValueError(f"limit must be zero or more, got {limit}")
    inventory = Inventory(max(limits, default=0))
    inventory.add_all(payloads)
    return [_select(inventory, limit) for limit in limits]


def _select(inventory: Inventory, limit: int) -> Selection:
    files = list(inventory.files.values())
    docs = [entry for entry in files if entry.kind == "doc"]
    code = [entry for entry in files if entry.kind == "code"]
    picked_docs, picked_code = _fill(docs, code, limit)
    return Selection(
        chunks=_in_output_order(picked_code, picked_docs),
        median_code=median_date(entry.newest_date for entry in code),
        limit=limit,
        chunks_seen=inventory.chunks_seen,
        docs_available=sum(entry.chunk_count for entry in docs),
        code_available=sum(entry.chunk_count for entry in code),
        picked=len(picked_docs) + len(picked_code),
    )


def _fill(docs: list[FileChunks], code: list[FileChunks], limit: int) -> tuple[list[Offer], list[Offer]]:
    doc_offers = offer_order(docs, 0, MAX_CHUNKS_PER_FILE)
    code_offers = offer_order(code, 0, MAX_CHUNKS_PER_FILE)
    picked_docs = take(doc_offers, doc_cap(limit))
    picked_code = take(code_offers, limit - len(picked_docs))
    # Code is scarcer than its share: docs fill the slots no code chunk can.
    picked_docs += take(doc_offers, limit - len(picked_docs) - len(picked_code))
    # Fewer files than the limit needs: past the per-file cap, code first.
    picked_code += take(offer_order(code, MAX_CHUNKS_PER_FILE, None), limit - len(picked_docs) - len(picked_code))
    picked_docs += take(offer_order(docs, MAX_CHUNKS_PER_FILE, None), limit - len(picked_docs) - len(picked_code))
    return picked_docs, picked_code


def _in_output_order(picked_code: list[Offer], picked_docs: list[Offer]) -> list[SelectedChunk]:
    picked = picked_code + picked_docs
    seeds = sorted(
        (offer for offer in picked if offer[0].seed_rank is not None),
        key=lambda offer: (offer[0].seed_rank or 0, len(offer[0].path), offer[0].path, offer[1]),
    )
    rest = [offer for offer in picked if offer[0].seed_rank is None]
    return [_selected(offer) for offer in seeds + rest]


def _selected(offer: Offer) -> SelectedChunk:
    entry, (_, start_line, end_line, _, symbol, symbol_type, language, modified, text, symbol_modified) = offer
    return SelectedChunk(
        # The selection is published and goes to a model: a key committed in the file stops here.
        text=redact_file_text(entry.path, text),
        path=entry.path,
        kind=entry.kind,
        last_modified_at=modified or None,
        start_line=start_line,
        end_line=end_line,
        symbol=symbol or None,
        symbol_type=symbol_type,
        language=language,
        reason="seed" if entry.seed_rank is not None else entry.kind,
        blob_sha=entry.blob_sha,
        symbol_last_modified_at=symbol_modified or None,
    )
