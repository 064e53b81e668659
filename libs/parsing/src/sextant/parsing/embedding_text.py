"""The two texts embedded per chunk: a dense text with a metadata preamble, and a sparse (BM25) text."""

from __future__ import annotations

import re

from sextant.parsing.symbol import Symbol

PREAMBLE_DOCSTRING_CHARS = 300
PREAMBLE_ANNOTATIONS = 8
_WHITESPACE = re.compile(r"\s+")

LANGUAGE_TITLES: dict[str, str] = {
    "python": "Python",
    "javascript": "JavaScript",
    "typescript": "TypeScript",
    "go": "Go",
    "java": "Java",
    "rust": "Rust",
    "c": "C",
    "cpp": "C++",
    "csharp": "C#",
    "ruby": "Ruby",
    "php": "PHP",
    "markdown": "Markdown",
    "rst": "reStructuredText",
    "asciidoc": "AsciiDoc",
    "text": "Text",
}


def _collapse(text: str) -> str:
    return _WHITESPACE.sub(" ", text).strip()


def dense_header(symbol: Symbol, path: str, repo_label: str | None) -> str:
    """The part of every dense text before the source: what the chunk is, where, and its signature.

    Args:
        symbol: The symbol the chunk belongs to.
        path: Repository-relative path of the file.
        repo_label: A name for the repository or service, when the caller wants it in the text.

    Returns:
        The preamble lines, then (after a blank line) the signature when there is one.
    """
    language = LANGUAGE_TITLES.get(symbol.language, symbol.language)
    title = f"{language} {symbol.symbol_type}"
    if symbol.name:
        title += f" `{symbol.name}`"
    if symbol.parent:
        title += f" in `{symbol.parent}`"
    if repo_label:
        title += f" (repository: {repo_label})"
    lines = [title, f"File: {path}"]
    if symbol.package:
        lines.append(f"Package: {symbol.package}")
    if symbol.annotations:
        lines.append("Annotations: " + ", ".join(symbol.annotations[:PREAMBLE_ANNOTATIONS]))
    if symbol.docstring:
        lines.append(_collapse(symbol.docstring)[:PREAMBLE_DOCSTRING_CHARS])
    header = "\n".join(lines)
    if symbol.signature:
        header += "\n\n" + symbol.signature
    return header


def sparse_text(symbol: Symbol, path: str, window_text: str) -> str:
    """The BM25 text: metadata words (language, type, name, parent, package, path, annotations) too.

    Identifier splitting (camelCase, snake_case) is left to the sparse encoder.

    Args:
        symbol: The symbol the chunk belongs to.
        path: Repository-relative path of the file.
        window_text: The chunk's own source text.

    Returns:
        Metadata words, signature, docstring and the chunk's source, one part per line.
    """
    words = [symbol.language, symbol.symbol_type, symbol.name, symbol.parent, symbol.package, path]
    parts = [" ".join(word for word in words if word)]
    parts.extend(symbol.annotations)
    parts.extend(part for part in (symbol.signature, symbol.docstring, window_text) if part)
    return "\n".join(parts)
