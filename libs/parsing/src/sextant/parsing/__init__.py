"""Source parsing into symbols and chunks.

`parse_symbols` splits a file into symbols (tree-sitter for code, headings for docs, line windows
for anything else); `build_chunks` turns them into embedding-sized chunks with dense and sparse texts.
"""

from sextant.parsing.chunking import MIN_MAX_CHARS, Chunk, build_chunks
from sextant.parsing.languages import PARSED_LANGUAGES, language_for_path
from sextant.parsing.source_text import decode_source
from sextant.parsing.symbol import Symbol
from sextant.parsing.symbol_kinds import NON_DEFINITION_SYMBOL_TYPES, is_definition
from sextant.parsing.symbols import parse_symbols

__all__ = [
    "MIN_MAX_CHARS",
    "NON_DEFINITION_SYMBOL_TYPES",
    "PARSED_LANGUAGES",
    "Chunk",
    "Symbol",
    "build_chunks",
    "decode_source",
    "is_definition",
    "language_for_path",
    "parse_symbols",
]
