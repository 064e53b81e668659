"""Doc drift: docs that reference symbols or paths this change removes, renames or rewrites."""

from __future__ import annotations

from collections.abc import Iterable

from sextant.chunkstore import ChunkPayload
from sextant.contracts import ReviewFinding
from sextant.doc_claims import Claim, CodeFacts, extract_claims, is_history_doc, reassemble_docs, resolve
from sextant.reviewer.diff_reading import DiffSummary


def find_doc_drift(payloads: Iterable[ChunkPayload], diff: DiffSummary) -> list[ReviewFinding]:
    """Every doc line (in the whole index) that names what the change takes away or reshapes.

    Changelogs and release notes describe history and are left alone.

    Args:
        payloads: Every chunk payload of the repository (docs are reassembled from them).
        diff: What the change removes, renames and rewrites.

    Returns:
        One ``doc_drift`` finding per doc line and reference, in doc/line order.
    """
    payloads = list(payloads)
    facts = CodeFacts.from_payloads(payloads)  # the index before the change: where the doc's paths lead
    findings = []
    for doc in reassemble_docs(payloads):
        if is_history_doc(doc.path):
            continue
        for claim in extract_claims(doc.path, doc.text, first_line=doc.first_line):
            what = _what_changed(claim, facts, diff)
            if what is None:
                continue
            findings.append(
                ReviewFinding(
                    path=doc.path,
                    line=claim.line,
                    severity="warning",
                    kind="doc_drift",
                    doc=doc.path,
                    message=f"{doc.path}:{claim.line} mentions `{claim.ref}`, which this change {what}; "
                    "update the doc.",
                )
            )
    return sorted(findings, key=lambda f: (f.path, f.line or 0, f.message))


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
