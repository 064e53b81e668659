"""Reading model answers: sections by `## ` heading, and the summary's two parts, whatever the shape."""

from __future__ import annotations

import pytest

from sextant.analyzer.reading.answer_sections import (
    canonical_title,
    missing_sections,
    split_sections,
    strip_outer_fence,
)
from sextant.analyzer.reading.summary_answer import parse_summary


def test_sections_tolerate_numbering_case_extra_and_code_blocks() -> None:
    markdown = (
        "Intro line.\n## 1. Architecture overview\nParts.\n```\n## not a heading\n```\n"
        "## **Dependencies and Risks**\nRisky.\n## Extra Notes\nMore.\n### Sub\nDeep.\n## Tech Stack:\nPy.\n"
    )
    sections = split_sections(markdown)
    assert list(sections) == ["Architecture Overview", "Dependencies & Risks", "Extra Notes", "Tech Stack"]
    assert sections["Architecture Overview"] == "Parts.\n```\n## not a heading\n```"
    assert sections["Extra Notes"] == "More.\n### Sub\nDeep."
    assert missing_sections(sections) == [
        "Code Quality",
        "Security Observations",
        "Key Components",
        "Documentation Accuracy",
    ]


@pytest.mark.parametrize(
    ("raw", "title"),
    [
        ("7. Documentation accuracy", "Documentation Accuracy"),
        ("`Tech Stack`", "Tech Stack"),
        ("Misc", "Misc"),
    ],
)
def test_canonical_titles(raw: str, title: str) -> None:
    assert canonical_title(raw) == title


def test_outer_fence_is_unwrapped_only_when_it_wraps_everything() -> None:
    assert strip_outer_fence("```markdown\n## A\nx\n```") == "## A\nx"
    assert strip_outer_fence("## A\n```\ncode\n```") == "## A\n```\ncode\n```"


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("## Purpose\nSells things.\n\n## Summary\nA shop.\nIn Go.", ("Sells things.", "A shop.\nIn Go.")),
        ("Purpose: Sells things.\nSummary: A shop.", ("Sells things.", "A shop.")),
        ("### purpose\nA purpose-built shop.\n### SUMMARY\nGo code.", ("A purpose-built shop.", "Go code.")),
        ("## Summary\nA shop. It sells.", ("A shop.", "A shop. It sells.")),
        (
            "A shop for things.\n\nIt is written in Go.",
            ("A shop for things.", "A shop for things.\n\nIt is written in Go."),
        ),
    ],
)
def test_summary_answers(answer: str, expected: tuple[str, str]) -> None:
    assert parse_summary(answer) == expected
