"""Seed files: the root README and the root build manifest, picked before anything else."""

from __future__ import annotations

from typing import Final

ROOT_MANIFEST_NAMES: Final = frozenset(
    {
        "package.json",
        "deno.json",
        "deno.jsonc",
        "go.mod",
        "Cargo.toml",
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "Pipfile",
        "pom.xml",
        "build.gradle",
        "build.gradle.kts",
        "build.sbt",
        "Gemfile",
        "composer.json",
        "mix.exs",
        "Package.swift",
        "pubspec.yaml",
        "CMakeLists.txt",
        "meson.build",
        "stack.yaml",
        "deps.edn",
        "project.clj",
        "shard.yml",
        "elm.json",
        "rebar.config",
        "dune-project",
        "vcpkg.json",
        "conanfile.py",
    }
)
"""Exact names of build manifests that say what a repository is, which language, which parts."""

ROOT_MANIFEST_SUFFIXES: Final = (".csproj", ".fsproj", ".vbproj", ".cabal", ".gemspec", ".nimble")
"""Manifests whose name is the project's own (MyApp.csproj, mylib.cabal, ...)."""

README_RANK: Final = 0
MANIFEST_RANK: Final = 1


def seed_rank(path: str) -> int | None:
    """Whether a path is a seed file, and which kind of seed.

    Args:
        path: Repository-relative path with forward slashes.

    Returns:
        README_RANK for a root README* (any case, any extension), MANIFEST_RANK for a root build
        manifest, None for every other file (including READMEs and manifests in subfolders).
    """
    if "/" in path:
        return None
    if path.lower().startswith("readme"):
        return README_RANK
    if path in ROOT_MANIFEST_NAMES or path.endswith(ROOT_MANIFEST_SUFFIXES):
        return MANIFEST_RANK
    return None
