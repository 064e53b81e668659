"""What an analysis or summary was made from, as one digest: equal digests, same text to expect.

The inputs (docs/analysis.md, "Fingerprint"): the purpose; the prompt version; the model (provider
and name, or "none") and its output budget; every selected chunk — path, blob SHA, lines, window,
the day it carries and a hash of its text, in selection order; the median code date; the doc-claim
findings in full. The evidence-only report also reads every file of the index, so for it the
digest of the index's files (path, blob SHA, date) is an input too. The commit SHA is not: a commit
that changes nothing the analysis reads leaves it current.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

import msgspec

from sextant.contracts import SelectedChunk
from sextant.doc_rules import calendar_day, payload_date

FINGERPRINT_VERSION = 1
"""Raised when the fingerprint's own recipe changes, so that no old digest matches a new one."""


def _text_digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def chunk_identity(chunk: SelectedChunk) -> tuple[str, str, int, int, str, str]:
    """What identifies one selected chunk's content and framing.

    Args:
        chunk: A selected chunk.

    Returns:
        (path, blob SHA or "", start line, end line, calendar day or "", text digest).
    """
    day = calendar_day(payload_date(chunk)) or ""
    return (chunk.path, chunk.blob_sha or "", chunk.start_line, chunk.end_line, day, _text_digest(chunk.text))


def output_fingerprint(
    *,
    purpose: str,
    prompt_version: int,
    model: str,
    max_tokens: int,
    chunks: Sequence[SelectedChunk],
    median_code: str | None,
    findings: Iterable[msgspec.Struct] = (),
    index_digest: str | None = None,
) -> str:
    """The digest of every input of one analysis or summary.

    Args:
        purpose: "analysis" or "summary".
        prompt_version: The prompt's version number.
        model: "provider/model", or "none" for the evidence-only text.
        max_tokens: The output budget asked for.
        chunks: The selection, in order.
        median_code: The repository's median code-file date.
        findings: The doc-claim findings the text is built on.
        index_digest: The digest of the index's files, when the text reads every file.

    Returns:
        A hex SHA-256.
    """
    recipe = {
        "version": FINGERPRINT_VERSION,
        "purpose": purpose,
        "prompt_version": prompt_version,
        "model": model,
        "max_tokens": max_tokens,
        "chunks": [chunk_identity(chunk) for chunk in chunks],
        "median_code": calendar_day(median_code),
        "findings": list(findings),
        "index": index_digest,
    }
    return hashlib.sha256(msgspec.json.encode(recipe)).hexdigest()
