"""Turning one file into symbols: code through tree-sitter, docs by heading, anything else in windows."""

from __future__ import annotations

import logging

from sextant.parsing.code_symbols import code_symbol_drafts
from sextant.parsing.component_scripts import COMPONENT_LANGUAGES, component_drafts
from sextant.parsing.doc_sections import HEADING_FINDERS, doc_section_drafts
from sextant.parsing.languages import grammar_keys_for_path, language_for_path
from sextant.parsing.line_windows import line_window_drafts
from sextant.parsing.source_text import normalize_newlines, split_lines
from sextant.parsing.symbol import Symbol
from sextant.parsing.symbol_draft import SymbolDraft

logger = logging.getLogger(__name__)

MINIFIED_LINE_CHARS = 1000
"""Lines longer than this that hold most of a file's characters mark it minified or generated: such
a file gets character windows, since a symbol per line-range would repeat its one huge line."""


def looks_minified(lines: list[str]) -> bool:
    """Tell whether most of a file's characters sit on very long lines (minified or generated code).

    Args:
        lines: The file's lines.

    Returns:
        True when lines over MINIFIED_LINE_CHARS hold more than half of the characters.
    """
    if max(map(len, lines), default=0) <= MINIFIED_LINE_CHARS:
        return False
    long_chars = sum(len(line) for line in lines if len(line) > MINIFIED_LINE_CHARS)
    return long_chars * 2 > sum(len(line) + 1 for line in lines)


def symbol_drafts(path: str, text: str) -> list[SymbolDraft]:
    """Split a file into symbol drafts; every non-blank line ends up in at least one of them.

    Args:
        path: Repository-relative path (chooses the language).
        text: The decoded file content (any line endings).

    Returns:
        Drafts in file order; empty for an empty or blank file.
    """
    text = normalize_newlines(text)
    if not text.strip():
        return []
    lines = split_lines(text)
    language = language_for_path(path) or "text"
    if language in COMPONENT_LANGUAGES:
        return component_drafts(path, text, language)
    if language in HEADING_FINDERS:
        sections = doc_section_drafts(path, lines, language)
        if sections:
            return sections
    grammar_keys = () if looks_minified(lines) else grammar_keys_for_path(path)
    if grammar_keys:
        try:
            drafts = code_symbol_drafts(path, text, lines, grammar_keys)
        except Exception:
            # A grammar or extraction bug must not lose the file: it is indexed as windows instead.
            logger.warning("parsing %s failed; indexing it as line windows", path, exc_info=True)
            drafts = None
        else:
            if drafts is None:
                logger.info("%s has too many syntax errors to trust its symbols; indexing it as windows", path)
        if drafts is not None:
            return drafts
    return line_window_drafts(lines, language)


def parse_symbols(path: str, text: str) -> list[Symbol]:
    """Split a file into symbols (functions, class outlines, doc sections, line windows).

    Args:
        path: Repository-relative path (chooses the language).
        text: The decoded file content (any line endings; see decode_source for bytes).

    Returns:
        Symbols in file order, containers before their members; empty for an empty or blank file.
    """
    return [draft.symbol for draft in symbol_drafts(path, text)]
