"""Suggested doc edits: a unified diff putting each renamed name's or moved file's replacement where the doc names it.

Only findings whose evidence names a replacement are used (a definition the removing commit added
or a near current name); the diff is a suggestion for a person to read and apply, never applied.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Mapping

from sextant.doc_claims.judging.finding import ClaimFinding
from sextant.doc_claims.syntax.mentions import newline_lines

_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


_CONTEXT = 3
"""Unchanged lines shown around each change, as `diff -u` shows them."""


def suggest_fixes(findings: list[ClaimFinding], docs: Mapping[str, str]) -> str:
    """A unified diff of every doc line whose stale name has a known replacement.

    Args:
        findings: Findings of a check (only contradicted ones with a replacement are used).
        docs: Doc path → its text.

    Returns:
        The diff (`--- a/doc`, `+++ b/doc` per doc, hunks of changed lines only), empty when
        nothing has a replacement. It applies with `git apply` at the checked commit.
    """
    edits: dict[str, dict[int, list[tuple[str, str, str]]]] = defaultdict(lambda: defaultdict(list))
    for finding in findings:
        if finding.status != "contradicted" or not finding.replacement or finding.doc not in docs:
            continue
        # A path is replaced whole (`docs/configuration.rst` → `docs/userguide/configuration.rst`); a
        # name, by the identifier of it the replacement stands for.
        old = finding.ref if finding.kind == "path" else stale_name(finding.ref, finding.replacement)
        if old is not None:
            edits[finding.doc][finding.line].append((finding.ref, old, finding.replacement))
    chunks = []
    for doc in sorted(edits):
        before = newline_lines(docs[doc])  # as the findings count lines (git's count)
        after = list(before)
        for line, renames in edits[doc].items():
            if 0 < line <= len(after):
                for ref, old, new in renames:
                    after[line - 1] = _rename_in_line(after[line - 1], ref, old, new)
        if after != before:
            chunks.append(f"--- a/{doc}\n+++ b/{doc}\n" + "".join(_hunks(before, after)))
    return "".join(chunks)


def _rename_in_line(text: str, ref: str, old: str, new: str) -> str:
    """The line with `old` renamed inside each place it writes `ref`; anywhere on it when the ref is not found."""
    word = re.compile(rf"(?<![\w$/.-]){re.escape(old)}(?![\w$/-])")
    if ref not in text:
        return word.sub(new, text)
    return re.sub(re.escape(ref), lambda match: word.sub(new, match.group(0)), text)


def _hunks(before: list[str], after: list[str]) -> list[str]:
    """Unified-diff hunks for two versions of a text that differ only inside lines (same line count).

    Written here rather than by difflib, whose matcher treats lines as common as blank ones as junk
    in a long doc and so shows unchanged lines as removed and added again.
    """
    changed = [i for i, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]
    groups: list[list[int]] = []
    for index in changed:
        if groups and index - groups[-1][-1] <= 2 * _CONTEXT + 1:
            groups[-1].append(index)
        else:
            groups.append([index])
    hunks = []
    for group in groups:
        start, end = max(0, group[0] - _CONTEXT), min(len(before), group[-1] + _CONTEXT + 1)
        lines = [f"@@ -{start + 1},{end - start} +{start + 1},{end - start} @@\n"]
        index = start
        while index < end:
            if before[index] == after[index]:
                lines.append(_diff_line(" ", before[index]))
                index += 1
                continue
            run = index
            while run < end and before[run] != after[run]:
                run += 1
            lines.extend(_diff_line("-", text) for text in before[index:run])
            lines.extend(_diff_line("+", text) for text in after[index:run])
            index = run
        hunks.append("".join(lines))
    return hunks


def _diff_line(mark: str, text: str) -> str:
    if text.endswith("\n"):
        return mark + text
    return f"{mark}{text}\n\\ No newline at end of file\n"


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
