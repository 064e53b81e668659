"""The shared doc/code classification."""

from __future__ import annotations

import pytest

from sextant.doc_rules.kinds import DOC_EXTENSIONS, chunk_kind


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("README.md", "doc"),
        ("docs/guide.MDX", "doc"),
        ("notes.txt", "doc"),
        ("docs/index.rst", "doc"),
        ("manual/book.AdOc", "doc"),
        ("src/app.py", "code"),
        ("config/settings.yaml", "code"),
        ("pyproject.toml", "code"),
        ("Makefile", "code"),
        ("docs\\windows.rst", "doc"),
        ("archive.md.bak", "code"),
        ("examples/completion/README", "doc"),  # click's examples: prose, once scanned as code
        ("CHANGES", "doc"),
        ("scripts/readme.sh", "code"),
    ],
)
def test_chunk_kind_is_by_extension_case_insensitive(path: str, kind: str) -> None:
    assert chunk_kind(path) == kind


def test_doc_extensions_are_the_five_prose_formats() -> None:
    assert frozenset({".md", ".mdx", ".txt", ".rst", ".adoc"}) == DOC_EXTENSIONS


@pytest.mark.parametrize(
    "path",
    ["CMakeLists.txt", "src/CMakeLists.txt", "requirements.txt", "requirements-dev.txt", "dev-requirements.txt",
     "constraints.txt", "ci/requirements_test.txt"],
)  # fmt: skip
def test_build_files_ending_in_txt_are_code(path: str) -> None:
    assert chunk_kind(path) == "code"


@pytest.mark.parametrize("path", ["notes.txt", "LICENSE.txt", "docs/requirements-of-the-project.md"])
def test_other_txt_and_docs_stay_docs(path: str) -> None:
    assert chunk_kind(path) == "doc"
