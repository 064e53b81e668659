"""The seven-section analysis written from evidence alone, when no language model is used.

Every sentence is a count, a list or a rule applied to the index; nothing is guessed. The first line
says plainly that no language model was used, and why (none configured, or the call failed).
"""

from __future__ import annotations

import re
from collections import Counter

from sextant.analyzer.evidence.gather import RepoEvidence
from sextant.analyzer.evidence.manifests import Manifest
from sextant.analyzer.evidence.test_files import is_test_path
from sextant.analyzer.report_shape.section_titles import DOC_ACCURACY, SECTION_TITLES
from sextant.analyzer.writing.doc_accuracy import documentation_accuracy
from sextant.analyzer.writing.markdown_text import code_span, listing, number, plural
from sextant.contracts import RepoRef
from sextant.doc_rules import calendar_day
from sextant.llm import clean_untrusted_line
from sextant.telemetry import tracer

NO_MODEL_LINE = "No language model was used for this analysis"

_ENTRY_POINT = re.compile(
    r"^(__main__\.py|main\.(py|go|rs|c|cc|cpp|java|kt|ts|js)|cli\.py|app\.py|index\.(js|ts|mjs)|server\.(js|ts|go|py)"
    r"|manage\.py|Program\.cs)$"
)
_DEPENDENCIES_SHOWN = 25
_LIST_LIMIT = 10


def headline(reason: str) -> str:
    """The report's first line: no language model was used, and why."""
    return f"{NO_MODEL_LINE} ({reason}). Every statement below is computed from the repository's index."


def _architecture(ev: RepoEvidence) -> str:
    inv = ev.inventory
    code, docs = len(inv.of_kind("code")), len(inv.of_kind("doc"))
    lines = [
        f"The index holds {number(len(inv.files))} files ({number(code)} code, {number(docs)} documentation) "
        f"in {number(inv.chunks)} chunks covering {number(inv.lines)} lines.",
        "",
        "| Directory | Files | Code | Docs | Chunks | Lines | Newest change | Median change |",
        "|---|---:|---:|---:|---:|---:|---|---|",
    ]
    lines += [
        f"| {code_span(d.name)} | {d.files} | {d.code_files} | {d.doc_files} | {number(d.chunks)} | "
        f"{number(d.lines)} | {calendar_day(d.newest) or 'unknown'} | {calendar_day(d.median) or 'unknown'} |"
        for d in inv.directories()
    ]
    entry_points = [code_span(i.path) for i in inv.of_kind("code") if _ENTRY_POINT.match(i.path.rsplit("/", 1)[-1])]
    lines.append("")
    if entry_points:
        lines.append(f"Files named like entry points: {listing(entry_points)}.")
    median = calendar_day(ev.median_code)
    lines.append(
        f"Median code-file date (last commit per file): {median}."
        if median
        else "File dates are unknown (no recency data in the index), so no age is given."
    )
    return "\n".join(lines)


def _tech_stack(ev: RepoEvidence) -> str:
    code_langs = ev.inventory.languages("code")
    doc_langs = ev.inventory.languages("doc")
    lines = []
    if code_langs:
        lines.append("Code languages by files: " + ", ".join(f"{name} ({n})" for name, n in code_langs) + ".")
    if doc_langs:
        lines.append("Documentation formats by files: " + ", ".join(f"{name} ({n})" for name, n in doc_langs) + ".")
    if ev.manifests:
        described = [
            f"{code_span(m.path)} ({m.ecosystem}, "
            f"{plural(len(m.dependencies), 'declared dependency', 'declared dependencies')})"
            if m.error is None
            else f"{code_span(m.path)} ({m.ecosystem}, {m.error})"
            for m in ev.manifests
        ]
        lines.append(f"Build manifests: {listing(described, 15)}.")
    else:
        lines.append("No build manifest was found in the index.")
    return "\n".join(lines)


def _code_quality(ev: RepoEvidence) -> str:
    code_files = len(ev.inventory.of_kind("code"))
    tests = ev.test_files
    if tests:
        folders = Counter(path.split("/", 1)[0] if "/" in path else "(root)" for path in tests)
        where = ", ".join(f"{code_span(name)} ({n})" for name, n in folders.most_common(_LIST_LIMIT))
        share = round(100 * len(tests) / code_files) if code_files else 0
        lines = [f"Test files: {len(tests)} of {code_files} code files ({share}%), by top-level directory: {where}."]
    else:
        lines = [
            "No test files were found (looked for test folders and names such as test_*.py, *_test.go, "
            "*.spec.ts, *Test.java)."
        ]
    stats = ev.symbols
    if stats.definitions:
        lines.append(
            f"Definitions parsed: {number(stats.definitions)} (functions, classes, methods, …); "
            f"{number(stats.documented)} carry a docstring or doc comment."
        )
        lines.append("")
        lines.append("Largest definitions:")
        lines += [
            f"- {code_span(s.name)} ({s.symbol_type}) — "
            f"{code_span(f'{s.path}:{s.start_line}-{s.end_line}')}, {plural(s.lines, 'line')}"
            for s in stats.largest
        ]
    else:
        lines.append("No functions, classes or methods were parsed from the indexed code.")
    return "\n".join(lines)


def _security(ev: RepoEvidence) -> str:
    facts = ev.security
    lines = [
        f"Scanned {facts.files_scanned} code files (tests excluded) for risky patterns; matches are places "
        "to review, not confirmed vulnerabilities."
    ]
    if facts.secret_like_files:
        names = [code_span(p) for p in facts.secret_like_files]
        lines.append(f"Files named like secrets or keys are in the index: {listing(names)}.")
    if facts.hits:
        by_kind: dict[str, list[str]] = {}
        for hit in facts.hits:
            by_kind.setdefault(hit.what, []).append(code_span(hit.place))
        lines.append("")
        lines += [f"- {what}: {listing(places)}" for what, places in by_kind.items()]
    else:
        lines.append(
            "No line matched the patterns checked (eval/exec calls, shell=True, os.system, pickle loads, "
            "yaml.load without a safe loader, string literals assigned to password-like names, private "
            "key blocks, disabled TLS verification, raw HTML sinks)."
        )
    return "\n".join(lines)


def _key_components(ev: RepoEvidence) -> str:
    mentioned = ev.symbols.most_mentioned
    lines = []
    if mentioned:
        lines.append("Definitions named by the most other code files:")
        lines += [
            f"- {code_span(m.name)} ({m.symbol_type}, {code_span(f'{m.path}:{m.line}')}) — named in "
            f"{plural(m.files, 'other file')}"
            for m in mentioned
        ]
    else:
        lines.append("No definition is named by another code file (or no definitions were parsed).")
    biggest = sorted(
        (i for i in ev.inventory.of_kind("code") if not is_test_path(i.path)),
        key=lambda i: (-i.lines, i.path),
    )[:5]
    if biggest:
        lines.append("")
        lines.append(
            "Largest code files (tests excluded): "
            + ", ".join(f"{code_span(i.path)} ({plural(i.lines, 'line')})" for i in biggest)
            + "."
        )
    return "\n".join(lines)


def _manifest_dependencies(manifest: Manifest) -> str:
    groups: dict[str, list[str]] = {}
    for dep in manifest.dependencies:
        shown = code_span(dep.name) + (f" {code_span(dep.spec, 60)}" if dep.spec else "")
        groups.setdefault(dep.group, []).append(shown)
    parts = [f"{group}: {listing(items, _DEPENDENCIES_SHOWN)}" for group, items in groups.items()]
    return f"- {code_span(manifest.path)} ({manifest.ecosystem}) — " + ("; ".join(parts) or "no dependencies declared")


def _dependencies(ev: RepoEvidence) -> str:
    readable = [m for m in ev.manifests if m.error is None]
    if not ev.manifests:
        return "No declared dependencies were found: the index holds no build manifest."
    lines = ["Declared dependencies by manifest:"] + [_manifest_dependencies(m) for m in readable]
    unpinned = sorted({d.name for m in readable for d in m.dependencies if d.spec.strip() in {"", "*", "latest"}})
    sourced = sorted({d.name for m in readable for d in m.dependencies if d.spec.startswith(("git ", "path ", "url "))})
    lines.append("")
    total = sum(len(m.dependencies) for m in readable)
    lines.append(
        f"Without a version constraint: {len(unpinned)} of {total} declared"
        + (f" ({listing([code_span(n) for n in unpinned])})." if unpinned else ".")
    )
    if sourced:
        lines.append(f"Taken from a git repository, path or URL: {listing([code_span(n) for n in sourced])}.")
    lines += [f"Could not read {code_span(m.path)}: {m.error}." for m in ev.manifests if m.error]
    return "\n".join(lines)


def offline_report(repo: RepoRef, head_sha: str | None, ev: RepoEvidence, *, reason: str, claims_limit: int) -> str:
    """The whole offline analysis as Markdown.

    Args:
        repo: The repository.
        head_sha: Commit analysed.
        ev: The evidence.
        reason: Why no model was used ("no language model is configured", or the failure).
        claims_limit: Doc-claim findings listed at most.

    Returns:
        The Markdown: the no-model line, a line naming the repository, then the seven sections.
    """
    with tracer(__name__).start_as_current_span("analyzer.offline_report") as span:
        bodies = {
            "Architecture Overview": _architecture(ev),
            "Tech Stack": _tech_stack(ev),
            "Code Quality": _code_quality(ev),
            "Security Observations": _security(ev),
            "Key Components": _key_components(ev),
            "Dependencies & Risks": _dependencies(ev),
            DOC_ACCURACY: documentation_accuracy(ev, claims_limit),
        }
        commit = f" at commit {head_sha[:12]}" if head_sha else ""
        parts = [headline(reason), "", f"Repository: {clean_untrusted_line(repo.url)}{commit}."]
        parts += [f"\n## {title}\n\n{bodies[title]}" for title in SECTION_TITLES]
        markdown = "\n".join(parts) + "\n"
        span.set_attribute("sextant.report_chars", len(markdown))
    return markdown
