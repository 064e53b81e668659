"""Repository text made safe to quote in Markdown: one line, visible characters, no backtick breakout."""

from __future__ import annotations

from sextant.llm import clean_untrusted_line


def code_span(text: str, limit: int = 120) -> str:
    """`text` as an inline code span, cleaned and shortened."""
    cleaned = clean_untrusted_line(text).replace("`", "'")
    if len(cleaned) > limit:
        cleaned = cleaned[: limit - 1] + "…"
    return f"`{cleaned}`"


def listing(items: list[str], limit: int = 10) -> str:
    """Comma-separated items, the rest counted ("a, b and 3 more")."""
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def number(value: int) -> str:
    """An integer with thousands separators."""
    return f"{value:,}"


def plural(count: int, word: str, many: str | None = None) -> str:
    """The count and the word, singular or plural: "1 file", "3 files"; `many` for irregular plurals."""
    return f"{count:,} {word if count == 1 else (many or word + 's')}"
