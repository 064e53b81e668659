"""Language detection and lazy, once-only grammar loading."""

from __future__ import annotations

import pytest

from sextant.parsing import PARSED_LANGUAGES, language_for_path
from sextant.parsing.languages import grammar, grammar_keys_for_path


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("a/b.py", "python"),
        ("web/app.JSX", "javascript"),
        ("web/app.tsx", "typescript"),
        ("cmd/main.go", "go"),
        ("Foo.java", "java"),
        ("lib.rs", "rust"),
        ("x.h", "c"),
        ("x.hpp", "cpp"),
        ("Program.cs", "csharp"),
        ("Rakefile", "ruby"),
        ("index.php", "php"),
        ("README.md", "markdown"),
        ("conf.yml", "yaml"),
        ("Dockerfile", "dockerfile"),
        ("blob.xyz", None),
        ("noextension", None),
    ],
)
def test_language_for_path(path: str, language: str | None) -> None:
    assert language_for_path(path) == language


def test_every_parsed_language_has_a_grammar_loaded_once() -> None:
    assert len(PARSED_LANGUAGES) == 22
    for language in PARSED_LANGUAGES:
        assert grammar(language) is grammar(language)
    assert grammar_keys_for_path("ui/Button.tsx") == ("tsx",)
    assert grammar_keys_for_path("api.ts") == ("typescript",)
    assert grammar_keys_for_path("notes.yaml") == ()
    assert grammar_keys_for_path("include/vector.h") == ("c", "cpp")
