"""The one text form of a git path: exact, reversible, and safe wherever text must be UTF-8.

Git names files with bytes: anything but NUL and ``/`` inside a name, so also newlines, control
characters and bytes that are not UTF-8. Sextant turns every path into text once, where it leaves
git, and uses that text everywhere after (store payloads, events, tokenizer input, prompts):

- a path that is valid UTF-8 with no control character (tab aside) and no backslash is kept as it
  is (almost every real path);
- any other path is escaped: ``\\`` → ``\\\\``, newline/CR → ``\\n``/``\\r``, other control
  characters (C0 but tab, DEL, C1, U+2028/2029) → ``\\uXXXX``, bytes that are not UTF-8 → ``\\xNN``.

Plain forms contain no backslash and escaped forms always do, so two different byte paths never
share a text form, and ``path_bytes`` gives the exact bytes back.
"""

from __future__ import annotations

import re

# Tab stays as it is: valid UTF-8, harmless in a line of text, and common enough in real names.
_NEEDS_ESCAPE = re.compile(r"[\\\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029\udc80-\udcff]")
_SHORT_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r"}
_ESCAPE = re.compile(r"\\(?:x([0-9a-f]{2})|u([0-9a-f]{4})|(.))", re.DOTALL)
_UNSHORT = {"\\": "\\", "n": "\n", "r": "\r"}


def _escape(match: re.Match[str]) -> str:
    char = match.group(0)
    short = _SHORT_ESCAPES.get(char)
    if short is not None:
        return short
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8, kept by surrogateescape
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}"


def path_text(raw: bytes) -> str:
    """The text form of a path as git wrote it.

    Args:
        raw: The path's bytes (from ``ls-tree -z``, ``log -z``, ``diff -z``).

    Returns:
        The path itself when it is plain UTF-8; otherwise its escaped form (see the module).
    """
    decoded = raw.decode("utf-8", "surrogateescape")
    if not _NEEDS_ESCAPE.search(decoded):
        return decoded
    return _NEEDS_ESCAPE.sub(_escape, decoded)


def text_path(text: str) -> str:
    """The text form of a path that arrived as Python text (a webhook payload, a CLI argument).

    Args:
        text: A path, possibly holding surrogate escapes or control characters.

    Returns:
        The same as ``path_text`` of its bytes: safe to put in an event or a prompt.
    """
    return path_text(text.encode("utf-8", "surrogateescape"))


def path_bytes(text: str) -> bytes:
    """The exact bytes of a path from its text form (the inverse of ``path_text``).

    Args:
        text: A text form made by ``path_text``.

    Returns:
        The bytes git names the file with.
    """
    if "\\" not in text:
        return text.encode("utf-8", "surrogateescape")
    out = bytearray()
    position = 0
    for match in _ESCAPE.finditer(text):
        out += text[position : match.start()].encode("utf-8")
        byte, code, short = match.groups()
        if byte is not None:
            out.append(int(byte, 16))
        elif code is not None:
            out += chr(int(code, 16)).encode("utf-8", "surrogatepass")
        else:
            out += _UNSHORT.get(short, "\\" + short).encode("utf-8")
        position = match.end()
    out += text[position:].encode("utf-8")
    return bytes(out)
