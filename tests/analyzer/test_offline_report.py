"""The evidence-only report on a realistic repository: every section, every fact checked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sextant.analyzer.evidence.gather import RepoEvidence, gather_evidence
from sextant.analyzer.reading.answer_sections import split_sections
from sextant.analyzer.report_shape.section_titles import SECTION_TITLES
from sextant.analyzer.writing.doc_accuracy import NO_DOCS_LINE
from sextant.analyzer.writing.offline_report import offline_report
from sextant.analyzer.writing.offline_summary import offline_summary, readme_first_paragraph
from sextant.chunkstore import ChunkPayload
from sextant.contracts import RepoRef

REPO = RepoRef.for_url("https://example.com/acme/shop.git")


def report(payloads: list[ChunkPayload], reason: str = "none is configured") -> tuple[str, RepoEvidence]:
    evidence = gather_evidence(payloads, None)
    return offline_report(REPO, "abc123", evidence, reason=reason, claims_limit=40), evidence


def test_first_line_says_no_model_and_every_section_is_there(shop_payloads: list[ChunkPayload]) -> None:
    markdown, _ = report(shop_payloads)
    assert markdown.splitlines()[0] == (
        "No language model was used for this analysis (none is configured). "
        "Every statement below is computed from the repository's index."
    )
    sections = split_sections(markdown)
    assert list(sections) == list(SECTION_TITLES)
    assert all(sections.values())


def test_structure_languages_and_manifests(shop_payloads: list[ChunkPayload]) -> None:
    sections = split_sections(report(shop_payloads)[0])
    overview = sections["Architecture Overview"]
    assert "10 files (8 code, 2 documentation)" in overview
    # shop/: 4 python files, newest change 2026-05-28, median of 04-01, 05-10, 05-28, 03-02 (lower) = 04-01
    assert "| `shop` | 4 | 4 | 0 |" in overview
    assert "| 2026-05-28 | 2026-04-01 |" in overview
    assert "| `docs` | 1 | 0 | 1 | 1 | 4 | 2024-08-12 | 2024-08-12 |" in overview
    assert "Median code-file date (last commit per file): 2026-04-01." in overview
    stack = sections["Tech Stack"]
    assert "python (5)" in stack
    assert "`pyproject.toml` (python, 5 declared dependencies)" in stack
    assert "`web/package.json` (npm, 3 declared dependencies)" in stack


def test_quality_security_and_components(shop_payloads: list[ChunkPayload]) -> None:
    sections = split_sections(report(shop_payloads)[0])
    assert "Test files: 1 of 8 code files (12%)" in sections["Code Quality"]
    assert "- `OrderRepository` (class) — `shop/storage.py:6-18`, 13 lines" in sections["Code Quality"]
    security = sections["Security Observations"]
    assert "Files named like secrets or keys are in the index: `.env`." in security
    assert "- shell=True in a subprocess call: `shop/billing.py:8`" in security
    assert "- eval() call: `shop/orders.py:16`" in security
    assert "- string literal assigned to a password-like name: `shop/storage.py:11`" in security
    assert "- pickle deserialisation: `shop/storage.py:18`" in security
    assert "tests/" not in security  # tests are not scanned
    components = sections["Key Components"]
    assert "- `create_order` (function, `shop/orders.py:8`) — named in 2 other files" in components
    assert "- `OrderRepository` (class, `shop/storage.py:6`) — named in 1 other file" in components


def test_dependencies_and_risks(shop_payloads: list[ChunkPayload]) -> None:
    deps = split_sections(report(shop_payloads)[0])["Dependencies & Risks"]
    assert "runtime: `httpx` `>=0.27`, `msgspec`, `PyYAML` `>=6`" in deps
    assert "optional:postgres: `psycopg` `>=3.1`" in deps
    assert "runtime: `react` `^18.2.0`, `left-pad` `*`; dev: `vite` `^5.0.0`" in deps
    assert "Without a version constraint: 2 of 8 declared (`left-pad`, `msgspec`)." in deps


def test_documentation_accuracy_from_checked_claims(shop_payloads: list[ChunkPayload]) -> None:
    markdown, evidence = report(shop_payloads)
    accuracy = split_sections(markdown)["Documentation Accuracy"]
    assert (
        "- docs/design.md:3 `OrderRepository.save_legacy()` (symbol) — contradicted: OrderRepository has no "
        "member save_legacy (nor do its bases)"
    ) in accuracy
    assert "README.md:10" not in accuracy  # verified claims are counted, not listed
    assert ("`docs/design.md` (last modified 2024-08-12 — 19 months older than typical code in this repo)") in accuracy
    statuses = {(f.doc, f.ref): f.status for f in evidence.doc_report.findings}
    assert statuses[("docs/design.md", "OrderRepository.save_legacy()")] == "contradicted"


def test_no_documentation_is_said_in_one_line(make_payloads: Callable[..., Any]) -> None:
    markdown, _ = report(make_payloads({"main.go": ("package main\n\nfunc main() {}\n", None)}))
    sections = split_sections(markdown)
    assert sections["Documentation Accuracy"] == NO_DOCS_LINE
    assert "File dates are unknown" in sections["Architecture Overview"]
    assert sections["Dependencies & Risks"].startswith("No declared dependencies were found")
    assert sections["Code Quality"].startswith("No test files were found")


def test_offline_summary_purpose_sources(shop_payloads: list[ChunkPayload], make_payloads: Callable[..., Any]) -> None:
    purpose, summary = offline_summary(gather_evidence(shop_payloads, None, check_doc_claims=False), "none")
    assert purpose == "Shop is a small order service that takes orders and bills customers. It runs as one process."
    assert "Purpose taken from the first paragraph of README.md." in summary
    assert "Size: 10 files (8 code, 2 documentation), 19 chunks" in summary
    assert "Median code-file date: 2026-04-01." in summary

    manifest_only = make_payloads({"Cargo.toml": ('[package]\nname = "x"\ndescription = "A fast x."\n', None)})
    purpose, summary = offline_summary(gather_evidence(manifest_only, None), "none")
    assert (purpose, "Purpose taken from the description in Cargo.toml." in summary) == ("A fast x.", True)

    nothing = make_payloads({"a.py": ("x = 1\n", None)})
    assert offline_summary(gather_evidence(nothing, None), "none")[0] == "unknown"


def test_readme_paragraph_skips_titles_badges_and_html() -> None:
    text = (
        "<p align=center><img src=logo.png></p>\n# Title\n[![ci](b.svg)](ci)\n\n"
        "A **fast** tool for [things](x.md)\u200b.\nSecond line.\n\nMore.\n"
    )
    assert readme_first_paragraph(text) == "A fast tool for things. Second line."
    assert readme_first_paragraph("# Only a title\n") is None
