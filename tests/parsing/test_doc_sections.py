"""Docs split into sections at their headings; plain text in windows."""

from __future__ import annotations

from sextant.parsing import parse_symbols

MARKDOWN = """---
title: Guide
---
Intro paragraph before any heading.

# Guide

Welcome.

## Install

```bash
# not a heading: inside a fence
pip install sextant
```

Setup notes
-----------

Underlined heading text.

## Use #
Run it.
#hashtag is not a heading
"""

RST = """=====
Title
=====

Intro.

Install
-------

Run pip.

Usage
-----

Call it.

Details
~~~~~~~

Fine print.
"""

ADOC = """= Manual
:toc:

== Install

----
== not a heading inside a listing
----

=== From source

Build it.

== Use
"""


def _rows(path: str, text: str) -> list[tuple[str | None, str | None, int, int]]:
    symbols = parse_symbols(path, text)
    assert {s.symbol_type for s in symbols} == {"section"}
    return [(s.name, s.parent, s.start_line, s.end_line) for s in symbols]


def test_markdown_atx_and_setext_headings_outside_fences() -> None:
    assert _rows("docs/guide.md", MARKDOWN) == [
        ("guide.md", None, 1, 5),
        ("Guide", None, 6, 9),
        ("Install", "Guide", 10, 16),
        ("Setup notes", "Guide", 17, 21),
        ("Use", "Guide", 22, 24),
    ]
    install = parse_symbols("docs/guide.md", MARKDOWN)[2]
    assert install.signature == "## Install"
    assert "pip install sextant" in install.source
    assert install.language == "markdown"


def test_mdx_is_markdown() -> None:
    assert _rows("page.mdx", "# A\ntext\n# B\nmore\n") == [("A", None, 1, 2), ("B", None, 3, 4)]


def test_rst_underlined_and_overlined_titles_with_levels() -> None:
    assert _rows("index.rst", RST) == [
        ("Title", None, 1, 6),
        ("Install", "Title", 7, 11),
        ("Usage", "Title", 12, 16),
        ("Details", "Usage", 17, 20),
    ]


def test_asciidoc_headings_skip_listing_blocks() -> None:
    assert _rows("manual.adoc", ADOC) == [
        ("Manual", None, 1, 3),
        ("Install", "Manual", 4, 9),
        ("From source", "Install", 10, 13),
        ("Use", "Manual", 14, 14),
    ]


def test_text_and_headingless_docs_become_line_windows() -> None:
    text = "\n".join(f"line {n}" for n in range(1, 131)) + "\n"
    for path, language in (("notes.txt", "text"), ("plain.md", "markdown")):
        symbols = parse_symbols(path, text)
        assert {s.symbol_type for s in symbols} == {"window"}
        assert {s.language for s in symbols} == {language}
        assert [(s.start_line, s.end_line) for s in symbols] == [(1, 60), (52, 111), (103, 130)]
        assert all(s.name is None for s in symbols)
