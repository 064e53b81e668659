"""The seven sections of an analysis and the two parts of a summary, titles and instructions.

The prompt asks for them, the answer reader maps a model's headings onto them, and the offline report
writes them: one vocabulary, so that "Documentation Accuracy" means the same section everywhere.
"""

from __future__ import annotations

DOC_ACCURACY = "Documentation Accuracy"
DOC_ACCURACY_INSTRUCTION = (
    "Compare documentation claims against the code. List claims the code contradicts or that appear "
    "outdated (cite the doc file and the contradicting code). Note which docs appear current and "
    "trustworthy. If no documentation was provided, say so in one line."
)
"""The seventh section's instruction, kept word for word (docs/analysis.md, "Framing")."""

ANALYSIS_SECTIONS: tuple[tuple[str, str], ...] = (
    (
        "Architecture Overview",
        "How the system is organised: its main parts, how they talk to each other, and its entry points.",
    ),
    (
        "Tech Stack",
        "Languages, frameworks, libraries and tools, as the code and the manifests show them.",
    ),
    (
        "Code Quality",
        "Structure, naming, error handling, tests and consistency, citing the files you judge.",
    ),
    (
        "Security Observations",
        "Risky patterns, secret handling, input validation and trust boundaries, citing files; "
        "say so in one line when the excerpts show nothing notable.",
    ),
    (
        "Key Components",
        "The most important modules, classes and functions, and what each one does.",
    ),
    (
        "Dependencies & Risks",
        "Declared dependencies, notable or risky ones, and operational or maintenance risks.",
    ),
    (DOC_ACCURACY, DOC_ACCURACY_INSTRUCTION),
)
"""The seven required sections, in order: title and what the section must say."""
SECTION_TITLES: tuple[str, ...] = tuple(title for title, _ in ANALYSIS_SECTIONS)

PURPOSE_HEADING = "Purpose"
SUMMARY_HEADING = "Summary"

PROVENANCE_HEADING = "Provenance"
"""The closing section of every analysis and summary: what the text stands on (not a model section)."""
