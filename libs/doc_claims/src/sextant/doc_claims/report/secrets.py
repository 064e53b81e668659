"""Credentials a doc writes out, masked before any finding leaves the check.

A doc may show a real token in an example (`export API_TOKEN=ghp_…`, a URL with a password); the
claim then carries it in its ref. Every rendering of findings — the Markdown section, the prompt's
evidence block, the event's `doc_claims`, `sextant docs-check --json` — masks it, so a secret that
slipped into a doc is not copied into Slack, the stream or a model's prompt as well. Placeholders
(`$TOKEN`, `<your-key>`, `${SECRET}`) are kept: they are what a reader should see. The rules are
the ones the analysis prompt and the events use (``sextant.secret_rules``), defined once.
"""

from __future__ import annotations

import msgspec

from sextant.doc_claims.judging.finding import ClaimFinding
from sextant.secret_rules import redact_doc_secrets


def redact_secrets(text: str) -> str:
    """The text with credentials masked by the shared doc rules (``sextant.secret_rules``).

    Args:
        text: Repository text about to be shown (a ref, an evidence sentence).

    Returns:
        The text with each credential replaced by a mask such as ``<redacted:password>``; placeholders
        and everything else kept.
    """
    return redact_doc_secrets(text)


def redact_finding(finding: ClaimFinding) -> ClaimFinding:
    """The finding with credentials masked in every text field (its place and verdict unchanged).

    Args:
        finding: A finding as the judging made it.

    Returns:
        The same finding when it holds no credential, otherwise a masked copy.
    """
    fields = {
        name: redact_secrets(value)
        for name in ("ref", "evidence", "removed_by", "replacement", "changed")
        if isinstance(value := getattr(finding, name), str) and redact_secrets(value) != value
    }
    return msgspec.structs.replace(finding, **fields) if fields else finding
