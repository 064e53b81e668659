"""Single-file components (Vue, Svelte): symbols from their ``<script>`` blocks, windows for the rest.

Each script block is parsed with the JavaScript or TypeScript grammar (``lang="ts"``) on a copy of
the file in which everything outside that block is blanked, so line and column numbers stay the
file's own. The markup and styles, with the scripts blanked, are cut into line windows. Every
non-blank line of the file ends up in some draft.
"""

from __future__ import annotations

import re

from sextant.parsing.code_symbols import code_symbol_drafts
from sextant.parsing.line_windows import line_window_drafts
from sextant.parsing.source_text import split_lines
from sextant.parsing.symbol_draft import SymbolDraft

COMPONENT_LANGUAGES = frozenset({"vue", "svelte"})
"""Languages whose files are components with script blocks."""

_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.DOTALL | re.IGNORECASE)
_TYPESCRIPT = re.compile(r"""\blang\s*=\s*["']?(ts|typescript|tsx)\b""", re.IGNORECASE)


def _blank(text: str, keep: list[tuple[int, int]]) -> str:
    """The text with every character outside the kept spans turned into a space (newlines stay)."""
    out = [char if char == "\n" else " " for char in text]
    for start, end in keep:
        out[start:end] = text[start:end]
    return "".join(out)


def component_drafts(path: str, text: str, language: str) -> list[SymbolDraft]:
    """Split a component file into script symbols and markup windows.

    Args:
        path: Repository-relative path.
        text: File content with "\\n" line endings.
        language: "vue" or "svelte" (the windows' language).

    Returns:
        Drafts sorted by line.
    """
    drafts: list[SymbolDraft] = []
    scripts: list[tuple[int, int]] = []
    for match in _SCRIPT.finditer(text):
        span = match.span(2)
        if not text[span[0] : span[1]].strip():
            continue
        scripts.append(span)
        grammar_key = "typescript" if _TYPESCRIPT.search(match.group(1)) else "javascript"
        masked = _blank(text, [span])
        found = code_symbol_drafts(path, masked, split_lines(masked), (grammar_key,))
        if found is None:  # too broken to trust: its lines go to windows like the markup
            scripts.pop()
            continue
        drafts.extend(found)
    markup = split_lines(_blank(text, [(0, len(text))]) if not scripts else _outside(text, scripts))
    drafts.extend(line_window_drafts(markup, language))
    drafts.sort(key=lambda draft: (draft.symbol.start_line, -draft.symbol.end_line, draft.symbol.symbol_type))
    return drafts


def _outside(text: str, spans: list[tuple[int, int]]) -> str:
    keep: list[tuple[int, int]] = []
    position = 0
    for start, end in sorted(spans):
        keep.append((position, start))
        position = end
    keep.append((position, len(text)))
    return _blank(text, keep)
