"""Suggested doc edits: a unified diff that puts each renamed name's replacement where the doc names it.

Only findings whose evidence names a replacement are used (a definition the removing commit added
or a near current name); the diff is a suggestion for a person to read and apply, never applied.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Mapping

from sextant.doc_claims.judging.finding import ClaimFinding

_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


def suggest_fixes(findings: list[ClaimFinding], docs: Mapping[str, str]) -> str:
    """A unified diff of every doc line whose stale name has a known replacement.

    Args:
        findings: Findings of a check (only contradicted ones with a replacement are used).
        docs: Doc path → its text.

    Returns:
        The diff (`--- a/doc`, `+++ b/doc` per doc), empty when nothing has a replacement.
    """
    edits: dict[str, dict[int, list[tuple[str, str]]]] = defaultdict(lambda: defaultdict(list))
    for finding in findings:
        if finding.status != "contradicted" or not finding.replacement or finding.doc not in docs:
            continue
        old = stale_name(finding.ref, finding.replacement)
        if old is not None:
            edits[finding.doc][finding.line].append((old, finding.replacement))
    chunks = []
    for doc in sorted(edits):
        before = docs[doc].splitlines(keepends=True)
        after = list(before)
        for line, pairs in edits[doc].items():
            if 0 < line <= len(after):
                for old, new in pairs:
                    after[line - 1] = re.sub(rf"(?<![\w$]){re.escape(old)}(?![\w$])", new, after[line - 1])
        chunks.append("".join(difflib.unified_diff(before, after, f"a/{doc}", f"b/{doc}")))
    return "".join(chunks)


def stale_name(ref: str, replacement: str) -> str | None:
    """The identifier of a ref that the replacement stands for (`SyncSession.refresh()` → `SyncSession`).

    Args:
        ref: The reference as the doc writes it.
        replacement: The name the code has instead.

    Returns:
        The most alike identifier of the ref, or None when the ref has none.
    """
    names = [name for name in _IDENTIFIER.findall(ref) if name != replacement]
    if not names:
        return None
    best: str = max(names, key=lambda name: difflib.SequenceMatcher(None, name, replacement).ratio())
    return best
