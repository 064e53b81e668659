"""Read a model's review answer into structured findings, tolerating prose around the JSON."""

from __future__ import annotations

import json
from typing import Any

from sextant.contracts import ReviewFinding

_SEVERITIES = {"info", "warning", "error"}


def parse_findings(text: str) -> list[ReviewFinding]:
    """Findings from the model's answer: the JSON array it was asked for, else the text as one note.

    Args:
        text: The model's answer.

    Returns:
        Structured findings (kind "review").
    """
    start, end = text.find("["), text.rfind("]")
    if start != -1 and end > start:
        try:
            items = json.loads(text[start : end + 1])
        except json.JSONDecodeError:
            items = None
        if isinstance(items, list):
            return [finding for item in items if (finding := _finding(item)) is not None]
    stripped = text.strip()
    return [ReviewFinding(path="", message=stripped, severity="info")] if stripped else []


def _finding(item: Any) -> ReviewFinding | None:
    if not isinstance(item, dict) or not str(item.get("message", "")).strip():
        return None
    line = item.get("line")
    severity = str(item.get("severity", "info")).lower()
    return ReviewFinding(
        path=str(item.get("path") or ""),
        line=line if isinstance(line, int) and line > 0 else None,
        severity=severity if severity in _SEVERITIES else "info",  # type: ignore[arg-type]
        message=str(item["message"]).strip(),
    )
