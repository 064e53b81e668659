"""Unified diffs as ``git diff`` prints them, for review requests."""

from __future__ import annotations


def one_line_change(path: str, before: str, after: str, *context: str) -> str:
    """A diff of ``path`` whose first line changes from ``before`` to ``after``, ``context`` lines after it."""
    lines = len(context) + 1
    body = "".join(f" {line}\n" for line in context)
    return (
        f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
        f"@@ -1,{lines} +1,{lines} @@\n-{before}\n+{after}\n{body}"
    )
