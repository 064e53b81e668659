"""Which language a path is written in, and the tree-sitter grammar for it (loaded lazily, once)."""

from __future__ import annotations

import functools
import importlib
from pathlib import PurePosixPath

from tree_sitter import Language

# Extension → language name. Languages with a grammar below are parsed into symbols; the others are
# named (for metadata and search) and chunked as line windows.
_EXTENSION_LANGUAGES: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".js": "javascript",
    ".jsx": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "typescript",
    ".go": "go",
    ".java": "java",
    ".rs": "rust",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".c++": "cpp",
    ".hh": "cpp",
    ".hpp": "cpp",
    ".hxx": "cpp",
    ".cs": "csharp",
    ".rb": "ruby",
    ".rake": "ruby",
    ".gemspec": "ruby",
    ".php": "php",
    ".md": "markdown",
    ".mdx": "markdown",
    ".rst": "rst",
    ".adoc": "asciidoc",
    ".txt": "text",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".toml": "toml",
    ".ini": "ini",
    ".cfg": "ini",
    ".xml": "xml",
    ".html": "html",
    ".htm": "html",
    ".css": "css",
    ".scss": "scss",
    ".sql": "sql",
    ".sh": "shell",
    ".bash": "shell",
    ".zsh": "shell",
    ".ksh": "shell",
    ".bats": "shell",
    ".proto": "protobuf",
    ".graphql": "graphql",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".swift": "swift",
    ".scala": "scala",
    ".sc": "scala",
    ".sbt": "scala",
    ".lua": "lua",
    ".tf": "terraform",
    ".tfvars": "terraform",
    ".hcl": "terraform",
    ".ex": "elixir",
    ".exs": "elixir",
    ".hs": "haskell",
    ".dart": "dart",
    ".zig": "zig",
    ".vue": "vue",
    ".svelte": "svelte",
    ".jsonc": "json",
    ".json5": "json",
    ".edn": "clojure",
    ".clj": "clojure",
    ".cljs": "clojure",
    ".cljc": "clojure",
    ".erl": "erlang",
    ".hrl": "erlang",
    ".ml": "ocaml",
    ".mli": "ocaml",
    ".jl": "julia",
    ".r": "r",
    ".pl": "perl",
    ".pm": "perl",
    ".ps1": "powershell",
    ".groovy": "groovy",
    ".gradle": "groovy",
    ".nim": "nim",
    ".nimble": "nim",
    ".cabal": "cabal",
    ".csproj": "xml",
    ".fsproj": "xml",
    ".vbproj": "xml",
    ".props": "xml",
    ".targets": "xml",
    ".fs": "fsharp",
    ".fsx": "fsharp",
    ".vb": "vbnet",
    ".m": "objective-c",
    ".mm": "objective-c",
    ".cmake": "cmake",
    ".mk": "makefile",
    ".nix": "nix",
    ".sol": "solidity",
}

# Well-known file names, build manifests first (so a manifest carries its ecosystem's language).
_FILENAME_LANGUAGES: dict[str, str] = {
    "dockerfile": "dockerfile",
    "containerfile": "dockerfile",
    "makefile": "makefile",
    "gnumakefile": "makefile",
    "gemfile": "ruby",
    "rakefile": "ruby",
    "podfile": "ruby",
    "vagrantfile": "ruby",
    "go.mod": "go-module",
    "go.work": "go-module",
    "pipfile": "toml",
    "mix.exs": "elixir",
    "deps.edn": "clojure",
    "project.clj": "clojure",
    "meson.build": "meson",
    "meson_options.txt": "meson",
    "rebar.config": "erlang",
    "dune-project": "dune",
    "dune": "dune",
    "cmakelists.txt": "cmake",
    "build.gradle": "groovy",
    "settings.gradle": "groovy",
    "jenkinsfile": "groovy",
    "justfile": "makefile",
    "procfile": "text",
}

# Grammar key → (module, function returning the language pointer). TSX is a grammar, not a language.
_GRAMMARS: dict[str, tuple[str, str]] = {
    "python": ("tree_sitter_python", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "java": ("tree_sitter_java", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"),
    "csharp": ("tree_sitter_c_sharp", "language"),
    "ruby": ("tree_sitter_ruby", "language"),
    "php": ("tree_sitter_php", "language_php"),
    "kotlin": ("tree_sitter_kotlin", "language"),
    "swift": ("tree_sitter_swift", "language"),
    "scala": ("tree_sitter_scala", "language"),
    "lua": ("tree_sitter_lua", "language"),
    "shell": ("tree_sitter_bash", "language"),
    "elixir": ("tree_sitter_elixir", "language"),
    "haskell": ("tree_sitter_haskell", "language"),
    "terraform": ("tree_sitter_hcl", "language"),
    "sql": ("tree_sitter_sql", "language"),
    "dart": ("tree_sitter_dart", "language"),
    "zig": ("tree_sitter_zig", "language"),
}

GRAMMAR_LANGUAGES: dict[str, str] = {key: ("typescript" if key == "tsx" else key) for key in _GRAMMARS}
"""Grammar key → the language name its symbols carry."""

PARSED_LANGUAGES: frozenset[str] = frozenset(_GRAMMARS) - {"tsx"}
"""Languages parsed into symbols with tree-sitter."""


def _suffix_and_name(path: str) -> tuple[str, str]:
    pure = PurePosixPath(path.replace("\\", "/"))
    return pure.suffix.lower(), pure.name.lower()


def language_for_path(path: str) -> str | None:
    """Name the language a file is written in, from its extension or well-known file name.

    Args:
        path: Repository-relative path.

    Returns:
        A lower-case language name ("python", "typescript", "markdown", "yaml", ...) or None when unknown.
    """
    suffix, name = _suffix_and_name(path)
    return _FILENAME_LANGUAGES.get(name) or _EXTENSION_LANGUAGES.get(suffix)


def grammar_keys_for_path(path: str) -> tuple[str, ...]:
    """Name the tree-sitter grammars to try on a file, best first; empty when it is not parsed.

    Args:
        path: Repository-relative path.

    Returns:
        Grammar keys ("tsx" for .tsx; "c" then "cpp" for .h headers, which are often C++).
    """
    language = language_for_path(path)
    if language not in PARSED_LANGUAGES:
        return ()
    suffix = _suffix_and_name(path)[0]
    if language == "typescript" and suffix == ".tsx":
        return ("tsx",)
    if suffix == ".h":
        return ("c", "cpp")
    return (language,)


@functools.cache
def grammar(key: str) -> Language:
    """Load a tree-sitter grammar once per process; the import is deferred until a file needs it.

    Args:
        key: A grammar key from grammar_key_for_path.

    Returns:
        The tree-sitter Language.
    """
    module_name, function_name = _GRAMMARS[key]
    module = importlib.import_module(module_name)
    return Language(getattr(module, function_name)())
