"""Doc drift: docs that reference symbols or paths this change removes, renames or rewrites.

Only docs that name what the change takes away are read: one streaming pass over the index keeps
the doc chunks that mention a removed or rewritten name (as a word) or a removed file's name, for at
most ``MAX_DRIFT_DOCS`` docs, and the paths of every file (to resolve a doc's relative links). No
other chunk text is held, and a change that removes or rewrites nothing reads nothing.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable
from dataclasses import dataclass

from sextant.chunkstore import ChunkPayload
from sextant.contracts import ReviewFinding
from sextant.doc_claims import (
    Claim,
    CodeFacts,
    CodeFactsCollector,
    extract_claims,
    is_history_doc,
    reassemble_docs,
    resolve,
)
from sextant.doc_rules.kinds import chunk_kind
from sextant.reviewer.diff_reading import DiffSummary

MAX_DRIFT_DOCS = 20
"""Docs read for drift; further docs that mention the change are counted, not read."""


@dataclass(frozen=True)
class DocDrift:
    """The drift findings, and how many docs mentioning the change were left unread by the cap."""

    findings: list[ReviewFinding]
    docs_read: int
    docs_left_out: int


def find_doc_drift(payloads: Iterable[ChunkPayload], diff: DiffSummary, *, max_docs: int = MAX_DRIFT_DOCS) -> DocDrift:
    """Every line of the docs that mention the change which names what it takes away or reshapes.

    Changelogs and release notes describe history and are left alone.

    Args:
        payloads: The repository's chunk payloads, consumed once as a stream (not consumed at all when
            the change removes and rewrites nothing).
        diff: What the change removes, renames and rewrites.
        max_docs: Most docs read (the first that mention the change, in stream order).

    Returns:
        One ``doc_drift`` finding per doc line and reference, in doc/line order.
    """
    mentions = _mention_pattern(diff)
    if mentions is None:
        return DocDrift([], 0, 0)
    paths: set[str] = set()
    kept: dict[str, list[ChunkPayload]] = {}
    left_out: set[str] = set()
    for payload in payloads:
        paths.add(payload.path)
        if chunk_kind(payload.path) != "doc" or is_history_doc(payload.path) or not mentions.search(payload.text):
            continue
        if payload.path in kept or len(kept) < max_docs:
            kept.setdefault(payload.path, []).append(payload)
        else:
            left_out.add(payload.path)
    facts = _tree_facts(paths)  # the index before the change: where the doc's paths lead
    findings = [
        finding
        for doc in reassemble_docs(c for chunks in kept.values() for c in chunks)
        for finding in _drift(doc.path, doc.text, doc.first_line, facts, diff)
    ]
    findings.sort(key=lambda f: (f.path, f.line or 0, f.message))
    return DocDrift(findings, len(kept), len(left_out))


def _mention_pattern(diff: DiffSummary) -> re.Pattern[str] | None:
    """Text that may name what the change removes or rewrites: a name as a word, a removed file's name."""
    names = sorted({*diff.removed_symbols, *diff.rewritten_symbols})
    files = sorted({posixpath.basename(path) for path in diff.removed_paths})
    parts = [rf"\b{re.escape(name)}\b" for name in names] + [re.escape(name) for name in files if name]
    return re.compile("|".join(parts)) if parts else None


def _tree_facts(paths: set[str]) -> CodeFacts:
    collector = CodeFactsCollector()
    collector.add_tree(paths)
    return collector.build()


def _drift(path: str, text: str, first_line: int, facts: CodeFacts, diff: DiffSummary) -> list[ReviewFinding]:
    findings = []
    for claim in extract_claims(path, text, first_line=first_line):
        what = _what_changed(claim, facts, diff)
        if what is not None:
            findings.append(
                ReviewFinding(
                    path=path,
                    line=claim.line,
                    severity="warning",
                    kind="doc_drift",
                    doc=path,
                    message=f"{path}:{claim.line} mentions `{claim.ref}`, which this change {what}; update the doc.",
                )
            )
    return findings


def _what_changed(claim: Claim, facts: CodeFacts, diff: DiffSummary) -> str | None:
    if claim.kind == "path":
        # Resolved the way a reader would (relative to the doc's folder or the root), then compared.
        path = resolve(claim, facts).code_path
        return f"moves or deletes ({path})" if path is not None and path in diff.removed_paths else None
    if claim.kind != "symbol":
        return None
    name = claim.target.removesuffix("()").rsplit(".", 1)[-1].rsplit("::", 1)[-1]
    if name in diff.removed_symbols:
        return f"removes or renames (it was declared in {diff.removed_symbols[name]})"
    if name in diff.rewritten_symbols:
        return f"rewrites (its declaration in {diff.rewritten_symbols[name]} changed)"
    return None
