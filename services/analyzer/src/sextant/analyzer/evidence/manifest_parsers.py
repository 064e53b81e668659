"""Small, safe readers of build manifests: declared dependencies and the description, nothing else.

Every reader takes the manifest's text and returns (dependencies, description). None evaluates
code, fetches anything or resolves entities: JSON and TOML go through the standard library's
parsers, the rest through line or tag patterns. A reader raises ValueError on text it cannot read.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Dependency:
    """One declared dependency."""

    name: str
    spec: str
    """Version constraint or source as written (`^1.2`, `>=2`, `git …`, `path …`); "" when none."""
    group: str
    """runtime, dev, peer, optional, build, indirect, a Maven scope or a named group."""


Parsed = tuple[list[Dependency], str | None]

_PEP508 = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(?:\[[^\]]*\])?\s*(.*)$")
_COMPOSER_PLATFORM = re.compile(r"^(php|hhvm|composer(-plugin)?-api|(ext|lib)-.+)$", re.IGNORECASE)


def _text(value: object) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _table(data: Mapping[str, Any], *keys: str) -> Mapping[str, Any]:
    node: Any = data
    for key in keys:
        node = node.get(key) if isinstance(node, Mapping) else None
    return node if isinstance(node, Mapping) else {}


def _json_object(text: str) -> Mapping[str, Any]:
    try:
        data = json.loads(text)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")  # noqa: TRY004 - every reader signals unreadable text with ValueError
    return data


def _from_mapping(table: Mapping[str, Any], group: str, skip: re.Pattern[str] | None = None) -> list[Dependency]:
    return [
        Dependency(name=str(name), spec=spec if isinstance(spec, str) else "", group=group)
        for name, spec in table.items()
        if not (skip and skip.match(str(name)))
    ]


def parse_package_json(text: str) -> Parsed:
    """package.json: dependencies, devDependencies, peerDependencies, optionalDependencies."""
    data = _json_object(text)
    groups = {
        "dependencies": "runtime",
        "devDependencies": "dev",
        "peerDependencies": "peer",
        "optionalDependencies": "optional",
    }
    deps = [dep for key, group in groups.items() for dep in _from_mapping(_table(data, key), group)]
    return deps, _text(data.get("description"))


def parse_composer_json(text: str) -> Parsed:
    """composer.json: require and require-dev, without PHP platform entries (php, ext-*, lib-*)."""
    data = _json_object(text)
    deps = _from_mapping(_table(data, "require"), "runtime", _COMPOSER_PLATFORM)
    deps += _from_mapping(_table(data, "require-dev"), "dev", _COMPOSER_PLATFORM)
    return deps, _text(data.get("description"))


def _pep508(requirements: Iterable[object], group: str) -> list[Dependency]:
    deps = []
    for requirement in requirements:
        if not isinstance(requirement, str):
            continue  # e.g. {include-group = "..."} in dependency-groups
        match = _PEP508.match(requirement.split(";", 1)[0])
        if match:
            deps.append(Dependency(name=match.group(1), spec=match.group(2).strip(), group=group))
    return deps


def _poetry_spec(spec: object) -> str:
    if isinstance(spec, str):
        return spec
    if isinstance(spec, Mapping):
        for key in ("version", "git", "path", "url"):
            if isinstance(spec.get(key), str):
                return spec[key] if key == "version" else f"{key} {spec[key]}"
    return ""


def parse_pyproject(text: str) -> Parsed:
    """pyproject.toml: [project] dependencies and extras, [dependency-groups], Poetry's tables."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(str(error)) from None
    project = _table(data, "project")
    raw = project.get("dependencies")
    deps = _pep508(raw if isinstance(raw, list) else [], "runtime")
    for extra, items in _table(project, "optional-dependencies").items():
        deps += _pep508(items if isinstance(items, list) else [], f"optional:{extra}")
    for name, items in _table(data, "dependency-groups").items():
        deps += _pep508(items if isinstance(items, list) else [], str(name))
    poetry = _table(data, "tool", "poetry")
    poetry_groups = {"runtime": _table(poetry, "dependencies"), "dev": _table(poetry, "dev-dependencies")}
    for name, group in _table(poetry, "group").items():
        poetry_groups[str(name)] = _table(group, "dependencies") if isinstance(group, Mapping) else {}
    for group_name, table in poetry_groups.items():
        deps += [
            Dependency(name=str(name), spec=_poetry_spec(spec), group=group_name)
            for name, spec in table.items()
            if str(name).lower() != "python"
        ]
    return deps, _text(project.get("description")) or _text(poetry.get("description"))


def parse_requirements(text: str) -> Parsed:
    """requirements*.txt: one PEP 508 requirement per line; options (-r, -e, --hash) are skipped."""
    deps = []
    for raw_line in text.splitlines():
        line = re.split(r"\s+#", raw_line, maxsplit=1)[0].strip()
        if not line or line.startswith(("#", "-")) or "://" in line.split("@", 1)[0]:
            continue
        deps += _pep508([line], "runtime")
    return deps, None


def parse_go_mod(text: str) -> Parsed:
    """go.mod: `require` lines and blocks; `// indirect` ones are grouped as indirect."""
    deps = []
    in_block = False
    for raw_line in text.splitlines():
        line = raw_line.strip()
        if in_block and line.startswith(")"):
            in_block = False
            continue
        if line.startswith("require") and line.rstrip().endswith("("):
            in_block = True
            continue
        entry = line.removeprefix("require").strip() if line.startswith("require ") else None
        if in_block:
            entry = line
        if not entry or entry.startswith("//"):
            continue
        fields = entry.split("//", 1)[0].split()
        if len(fields) >= 2:
            group = "indirect" if "// indirect" in entry else "runtime"
            deps.append(Dependency(name=fields[0], spec=fields[1], group=group))
    return deps, None


def _cargo_spec(spec: object) -> str:
    if isinstance(spec, Mapping) and spec.get("workspace") is True:
        return "workspace"
    return _poetry_spec(spec)


def parse_cargo_toml(text: str) -> Parsed:
    """Cargo.toml: [dependencies], [dev-dependencies], [build-dependencies], [workspace.dependencies]."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(str(error)) from None
    tables = {
        "runtime": _table(data, "dependencies"),
        "dev": _table(data, "dev-dependencies"),
        "build": _table(data, "build-dependencies"),
        "workspace": _table(data, "workspace", "dependencies"),
    }
    deps = [
        Dependency(name=str(name), spec=_cargo_spec(spec), group=group)
        for group, table in tables.items()
        for name, spec in table.items()
    ]
    return deps, _text(_table(data, "package").get("description"))


_GEM = re.compile(r"""^\s*gem\s+["']([^"']+)["']\s*(?:,\s*["']([^"']+)["'])?""")
_GEM_GROUP = re.compile(r"^\s*group\s+(.+?)\s+do\b")


def parse_gemfile(text: str) -> Parsed:
    """Gemfile: `gem "name", "constraint"` lines, inside `group … do … end` blocks or not."""
    deps = []
    group = "runtime"
    for line in text.splitlines():
        if match := _GEM_GROUP.match(line):
            group = "group " + re.sub(r"[\s:]+", " ", match.group(1)).strip()
        elif re.match(r"^\s*end\b", line):
            group = "runtime"
        elif match := _GEM.match(line):
            deps.append(Dependency(name=match.group(1), spec=match.group(2) or "", group=group))
    return deps, None


_XML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_POM_DEPENDENCY = re.compile(r"<dependency>(.*?)</dependency>", re.DOTALL)
_POM_NOT_OWN = re.compile(r"<(dependencies|dependencyManagement|build|parent|profiles)>.*?</\1>", re.DOTALL)


def _xml_tag(block: str, tag: str) -> str:
    match = re.search(rf"<{tag}>\s*(.*?)\s*</{tag}>", block, re.DOTALL)
    return match.group(1) if match else ""


def parse_pom_xml(text: str) -> Parsed:
    """pom.xml: each <dependency>'s groupId:artifactId, version and scope; the project's description.

    Read with tag patterns, not an XML parser, so entities and DTDs are never expanded.
    """
    body = _XML_COMMENT.sub("", text)
    if "<project" not in body:
        raise ValueError("no <project> element")
    deps = []
    for block in _POM_DEPENDENCY.findall(body):
        group_id, artifact = _xml_tag(block, "groupId"), _xml_tag(block, "artifactId")
        if artifact:
            name = f"{group_id}:{artifact}" if group_id else artifact
            deps.append(
                Dependency(name=name, spec=_xml_tag(block, "version"), group=_xml_tag(block, "scope") or "compile")
            )
    description = _xml_tag(_POM_NOT_OWN.sub("", body), "description")
    return deps, description or None
