"""Turning file bytes into the text the parser works on: decoded, with one line-ending convention."""

from __future__ import annotations

_BOM = "\ufeff"


def decode_source(data: bytes) -> str:
    """Decode file content as UTF-8, replacing invalid bytes so that no file is rejected.

    Args:
        data: Raw file bytes.

    Returns:
        The text, without a leading byte-order mark.
    """
    text = data.decode("utf-8", errors="replace")
    return text.removeprefix(_BOM)


def normalize_newlines(text: str) -> str:
    """Use "\\n" line endings only, so that line numbers agree with git, editors and tree-sitter rows.

    Args:
        text: Decoded file text, possibly with CRLF or lone CR endings.

    Returns:
        The text with every CRLF and lone CR turned into LF.
    """
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def split_lines(text: str) -> list[str]:
    """Split normalized text into lines, line k of the file at index k-1; a final newline adds no line.

    Args:
        text: Text with "\\n" line endings.

    Returns:
        The lines without their endings; empty for empty text.
    """
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines
