"""Build manifests in the index: which files they are, their declared dependencies and descriptions."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from sextant.analyzer.evidence.build_file_parsers import (
    parse_cabal,
    parse_cmakelists,
    parse_conanfile_py,
    parse_deno_json,
    parse_deps_edn,
    parse_dune_project,
    parse_elm_json,
    parse_gemspec,
    parse_gradle,
    parse_meson_build,
    parse_mix_exs,
    parse_msbuild_project,
    parse_nimble,
    parse_package_swift,
    parse_pipfile,
    parse_project_clj,
    parse_pubspec_yaml,
    parse_rebar_config,
    parse_sbt,
    parse_setup_cfg,
    parse_setup_py,
    parse_shard_yml,
    parse_stack_yaml,
    parse_vcpkg_json,
)
from sextant.analyzer.evidence.manifest_parsers import (
    Dependency,
    Parsed,
    parse_cargo_toml,
    parse_composer_json,
    parse_gemfile,
    parse_go_mod,
    parse_package_json,
    parse_pom_xml,
    parse_pyproject,
    parse_requirements,
)
from sextant.analyzer.evidence.payload_lines import FileTexts
from sextant.chunkstore.payload import ChunkPayload
from sextant.llm import strip_invisible

_DESCRIPTION_LIMIT = 300
_BY_NAME: dict[str, tuple[str, Callable[[str], Parsed]]] = {
    "package.json": ("npm", parse_package_json),
    "composer.json": ("composer", parse_composer_json),
    "pyproject.toml": ("python", parse_pyproject),
    "go.mod": ("go", parse_go_mod),
    "cargo.toml": ("cargo", parse_cargo_toml),
    "gemfile": ("bundler", parse_gemfile),
    "pom.xml": ("maven", parse_pom_xml),
    "build.gradle": ("gradle", parse_gradle),
    "build.gradle.kts": ("gradle", parse_gradle),
    "build.sbt": ("sbt", parse_sbt),
    "mix.exs": ("hex", parse_mix_exs),
    "pipfile": ("python", parse_pipfile),
    "setup.cfg": ("python", parse_setup_cfg),
    "setup.py": ("python", parse_setup_py),
    "deno.json": ("deno", parse_deno_json),
    "deno.jsonc": ("deno", parse_deno_json),
    "package.swift": ("swiftpm", parse_package_swift),
    "pubspec.yaml": ("pub", parse_pubspec_yaml),
    "elm.json": ("elm", parse_elm_json),
    "vcpkg.json": ("vcpkg", parse_vcpkg_json),
    "conanfile.py": ("conan", parse_conanfile_py),
    "cmakelists.txt": ("cmake", parse_cmakelists),
    "meson.build": ("meson", parse_meson_build),
    "stack.yaml": ("stack", parse_stack_yaml),
    "deps.edn": ("clojure", parse_deps_edn),
    "project.clj": ("leiningen", parse_project_clj),
    "shard.yml": ("shards", parse_shard_yml),
    "rebar.config": ("rebar", parse_rebar_config),
    "dune-project": ("opam", parse_dune_project),
}
# Manifests named after their project (MyApp.csproj, mylib.cabal): chosen by suffix.
_BY_SUFFIX: dict[str, tuple[str, Callable[[str], Parsed]]] = {
    ".csproj": ("nuget", parse_msbuild_project),
    ".fsproj": ("nuget", parse_msbuild_project),
    ".vbproj": ("nuget", parse_msbuild_project),
    ".cabal": ("hackage", parse_cabal),
    ".nimble": ("nimble", parse_nimble),
    ".gemspec": ("bundler", parse_gemspec),
}
_REQUIREMENTS = re.compile(r"^requirements([._-][\w.-]*)?\.(txt|in)$", re.IGNORECASE)
# Vendored and fixture copies of manifests describe someone else's package, not this repository.
_FOREIGN_FOLDERS = frozenset({"node_modules", "vendor", "third_party", "fixtures", "testdata"})


@dataclass(frozen=True)
class Manifest:
    """One manifest file and what it declares."""

    path: str
    ecosystem: str
    dependencies: tuple[Dependency, ...]
    description: str | None
    error: str | None = None
    """Why the file could not be read (then it declares nothing we can show)."""


def manifest_ecosystem(path: str) -> str | None:
    """The ecosystem a manifest path belongs to (npm, python, go, ...), None when it is no manifest."""
    segments = path.split("/")
    if any(segment.lower() in _FOREIGN_FOLDERS for segment in segments[:-1]):
        return None
    name = segments[-1]
    if _REQUIREMENTS.match(name):
        return "python"
    known = _reader(name)
    return known[0] if known else None


def _reader(name: str) -> tuple[str, Callable[[str], Parsed]] | None:
    if _REQUIREMENTS.match(name):
        return "python", parse_requirements
    lowered = name.lower()
    if lowered in _BY_NAME:
        return _BY_NAME[lowered]
    suffix = lowered[lowered.rfind(".") :] if "." in lowered[1:] else ""
    return _BY_SUFFIX.get(suffix)


def clean_description(text: str | None) -> str | None:
    """A description on one line, without invisible characters, at most 300 characters."""
    if not text:
        return None
    cleaned = " ".join(strip_invisible(text).split())
    if not cleaned:
        return None
    return cleaned if len(cleaned) <= _DESCRIPTION_LIMIT else cleaned[: _DESCRIPTION_LIMIT - 1] + "…"


def parse_manifest(path: str, text: str) -> Manifest:
    """Read one manifest's declared dependencies and description.

    Args:
        path: Repository path (its file name chooses the reader).
        text: The file's text.

    Returns:
        The manifest; `error` says why when the text could not be read.
    """
    reader = _reader(path.rsplit("/", 1)[-1])
    if reader is None:
        raise ValueError(f"not a build manifest: {path}")
    ecosystem, parser = reader
    try:
        deps, description = parser(text)
    except ValueError as error:
        return Manifest(path, ecosystem, (), None, error=f"could not be read ({str(error)[:120]})")
    return Manifest(path, ecosystem, tuple(deps), clean_description(description))


class ManifestCollector:
    """Puts manifest files back together from their chunks, then reads them."""

    def __init__(self) -> None:
        self._texts = FileTexts()

    def add(self, payload: ChunkPayload) -> None:
        """Take in one chunk payload (chunks of other files are ignored)."""
        if manifest_ecosystem(payload.path) is not None:
            self._texts.add(payload)

    def build(self) -> list[Manifest]:
        """Every manifest found, sorted by depth then path (root manifests first)."""
        texts = self._texts.texts()
        return [parse_manifest(path, texts[path]) for path in sorted(texts, key=lambda p: (p.count("/"), p))]
