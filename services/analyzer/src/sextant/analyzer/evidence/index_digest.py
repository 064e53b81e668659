"""One digest over every indexed file, whatever the scroll order: what the evidence-only report read."""

from __future__ import annotations

import hashlib

import msgspec

from sextant.doc_rules import calendar_day


class IndexDigest:
    """Folds every payload's file identity into one digest, whatever the scroll order (memory: files)."""

    def __init__(self) -> None:
        self._files: dict[str, tuple[str, str]] = {}

    def add(self, path: str, blob_sha: str, last_modified_at: object) -> None:
        """Take in one chunk's file.

        Args:
            path: The file's path.
            blob_sha: Its blob SHA.
            last_modified_at: Its stored date (any value; only its calendar day counts).
        """
        if path not in self._files:
            self._files[path] = (blob_sha, calendar_day(last_modified_at) or "")

    def digest(self) -> str:
        """The hex SHA-256 over the files, sorted by path."""
        return hashlib.sha256(msgspec.json.encode(sorted(self._files.items()))).hexdigest()
