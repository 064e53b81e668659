"""The summary written from evidence alone: purpose from the README or a manifest, then plain facts."""

from __future__ import annotations

import re

from sextant.analyzer.evidence.gather import RepoEvidence
from sextant.analyzer.evidence.manifests import clean_description
from sextant.analyzer.writing.markdown_text import number, plural
from sextant.doc_rules import calendar_day
from sextant.llm import clean_untrusted_line

UNKNOWN_PURPOSE = "unknown"
_PURPOSE_LIMIT = 400
# Lines that are not prose: headings, badges, images, HTML, tables, rules, code fences, link refs,
# RST/AsciiDoc title underlines and directives.
_NOT_PROSE = re.compile(
    r"^\s*(#|!\[|\[!\[|<|\||```|~~~|---|===|\*\*\*|\.\. |:[a-z]+:|\[[^\]]+\]:|=+\s|[-=~^*]{3,}\s*$)"
)
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(\*\*|__|\*|`)")


def readme_first_paragraph(text: str) -> str | None:
    """The README's first paragraph of prose, on one line, links reduced to their words.

    Args:
        text: The README's text.

    Returns:
        The paragraph (at most 400 characters), or None when the README has no prose paragraph.
    """
    paragraph: list[str] = []
    for line in text.splitlines():
        if not line.strip() or _NOT_PROSE.match(line):
            if paragraph:
                break
            continue
        paragraph.append(line.strip())
    if not paragraph:
        return None
    prose = _EMPHASIS.sub("", _LINK.sub(r"\1", " ".join(paragraph)))
    cleaned = clean_description(prose)
    if cleaned and len(cleaned) > _PURPOSE_LIMIT:
        cleaned = cleaned[: _PURPOSE_LIMIT - 1] + "…"
    return cleaned


def offline_purpose(ev: RepoEvidence) -> tuple[str, str]:
    """What the repository is for, from its own words, and where those words come from.

    Args:
        ev: The evidence.

    Returns:
        (purpose, source): the root README's first paragraph, else the first manifest description,
        else ("unknown", "").
    """
    if ev.readme_text and ev.readme_path and (paragraph := readme_first_paragraph(ev.readme_text)):
        return paragraph, f"the first paragraph of {ev.readme_path}"
    for manifest in ev.manifests:
        if manifest.description:
            return manifest.description, f"the description in {manifest.path}"
    return UNKNOWN_PURPOSE, ""


def offline_summary(ev: RepoEvidence, reason: str) -> tuple[str, str]:
    """The purpose and a few factual lines about the repository.

    Args:
        ev: The evidence.
        reason: Why no model was used.

    Returns:
        (purpose, summary).
    """
    purpose, source = offline_purpose(ev)
    inv = ev.inventory
    code, docs = len(inv.of_kind("code")), len(inv.of_kind("doc"))
    lines = [f"No language model was used for this summary ({reason})."]
    lines.append(
        f"Purpose taken from {source}." if source else "No README paragraph or manifest description states the purpose."
    )
    languages = inv.languages("code")
    if languages:
        lines.append(
            "Languages: "
            + ", ".join(f"{clean_untrusted_line(name)} ({plural(n, 'file')})" for name, n in languages[:6])
            + "."
        )
    lines.append(
        f"Size: {number(len(inv.files))} files ({number(code)} code, {number(docs)} documentation), "
        f"{number(inv.chunks)} chunks, {number(inv.lines)} lines."
    )
    directories = [d for d in inv.directories() if d.name != "(root)"][:5]
    if directories:
        lines.append(
            "Top directories: "
            + ", ".join(f"{clean_untrusted_line(d.name)} ({plural(d.files, 'file')})" for d in directories)
            + "."
        )
    median = calendar_day(ev.median_code)
    lines.append(f"Median code-file date: {median}." if median else "File dates are unknown.")
    return purpose, "\n".join(lines)
