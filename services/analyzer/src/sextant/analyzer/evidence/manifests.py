"""Build manifests in the index: which files they are, their declared dependencies and descriptions."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

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
    known = _BY_NAME.get(name.lower())
    return known[0] if known else None


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
    name = path.rsplit("/", 1)[-1]
    ecosystem, parser = ("python", parse_requirements) if _REQUIREMENTS.match(name) else _BY_NAME[name.lower()]
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
