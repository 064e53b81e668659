"""Credentials a doc writes out, masked before any finding leaves the check.

A doc may show a real token in an example (`export API_TOKEN=ghp_…`, a URL with a password); the
claim then carries it in its ref. Every rendering of findings — the Markdown section, the prompt's
evidence block, the event's `doc_claims`, `sextant docs-check --json` — masks it, so a secret that
slipped into a doc is not copied into Slack, the stream or a model's prompt as well. Placeholders
(`$TOKEN`, `<your-key>`, `${SECRET}`) are kept: they are what a reader should see.
"""

from __future__ import annotations

import re

import msgspec

from sextant.doc_claims.judging.finding import ClaimFinding

MASK = "***"

_URL_USERINFO = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s@'\"`<>]+@")
_TOKEN_SHAPES = re.compile(
    r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposr]-[A-Za-z0-9-]{10,}"
    r"|sk-[A-Za-z0-9_-]{16,}|[sr]k_live_[A-Za-z0-9]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{35}"
    r"|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})"
)
_BEARER = re.compile(r"(?i)\b(bearer|basic)(\s+)([A-Za-z0-9._~+/-]{16,}=*)")
_SECRET_ASSIGNMENT = re.compile(
    r"(?i)\b([\w.-]*(?:passw(?:or)?d|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)"
    r"[\w.-]*[\"']?\s*(?:=|:\s))(\s*[\"']?)([^\s\"'`,;]+)"
)
_PLACEHOLDER = re.compile(r"^(?:[$<{%]|\.\.\.|x+$|\*+$)", re.IGNORECASE)


def redact_secrets(text: str) -> str:
    """The text with credentials masked: URL userinfo, well-known token shapes, secret assignments.

    Args:
        text: Repository text about to be shown (a ref, an evidence sentence).

    Returns:
        The text with each credential replaced by `***`; placeholders and everything else kept.
    """
    text = _URL_USERINFO.sub(rf"\g<1>{MASK}@", text)
    text = _TOKEN_SHAPES.sub(MASK, text)
    text = _BEARER.sub(rf"\g<1>\g<2>{MASK}", text)
    return _SECRET_ASSIGNMENT.sub(_mask_value, text)


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


def _mask_value(match: re.Match[str]) -> str:
    name, quote, value = match.group(1), match.group(2), match.group(3)
    if _PLACEHOLDER.match(value) or value == MASK:
        return match.group(0)
    return f"{name}{quote}{MASK}"
