"""Readers for the other build manifests: Gradle, sbt, Mix, Swift, .NET, Cabal, Dart, Deno, Pipfile, ...

Same contract as `manifest_parsers`: text in, (dependencies, description) out, ValueError on text
that cannot be read. Build scripts (Gradle, sbt, Mix, SwiftPM, Meson, Conan) are programs, so they
are read by patterns over their usual declaration forms, never run; a dependency declared through
a computed expression is not listed. Data formats (TOML, JSON) use the standard library.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from sextant.analyzer.evidence.manifest_parsers import (
    Dependency,
    Parsed,
    _from_mapping,
    _json_object,
    _pep508,
    _poetry_spec,
    _table,
    _text,
    _xml_tag,
)

_GRADLE_CONFIGURATIONS = (
    "implementation|api|compileOnly|runtimeOnly|testImplementation|testCompileOnly|testRuntimeOnly|"
    "androidTestImplementation|debugImplementation|kapt|ksp|annotationProcessor|classpath|compile|testCompile"
)
_GRADLE_COORDINATE = re.compile(
    rf"""\b({_GRADLE_CONFIGURATIONS})\s*\(?\s*(?:platform\s*\(\s*)?["']([^"':\s]+):([^"':\s]+)(?::([^"'\s]+))?["']"""
)
_GRADLE_CATALOG = re.compile(rf"\b({_GRADLE_CONFIGURATIONS})\s*\(?\s*(libs\.[\w.]+)")
_GRADLE_PROJECT = re.compile(rf"""\b({_GRADLE_CONFIGURATIONS})\s*\(?\s*project\s*\(\s*["']([^"']+)["']""")
_GRADLE_TEST = re.compile(r"^(test|androidTest)")


def _gradle_group(configuration: str) -> str:
    if _GRADLE_TEST.match(configuration):
        return "test"
    return {"compileOnly": "build", "annotationProcessor": "build", "kapt": "build", "ksp": "build"}.get(
        configuration, "build" if configuration == "classpath" else "runtime"
    )


def parse_gradle(text: str) -> Parsed:
    """build.gradle / build.gradle.kts: `configuration("group:name:version")`, catalog aliases, projects."""
    deps = [
        Dependency(name=f"{group}:{name}", spec=version or "", group=_gradle_group(configuration))
        for configuration, group, name, version in _GRADLE_COORDINATE.findall(text)
    ]
    deps += [
        Dependency(name=alias, spec="version catalog", group=_gradle_group(configuration))
        for configuration, alias in _GRADLE_CATALOG.findall(text)
    ]
    deps += [
        Dependency(name=project, spec="project", group=_gradle_group(configuration))
        for configuration, project in _GRADLE_PROJECT.findall(text)
    ]
    description = re.search(r"""^\s*description\s*=\s*["']([^"']+)["']""", text, re.MULTILINE)
    return deps, description.group(1) if description else None


_SBT_MODULE = re.compile(r'"([^"\s]+)"\s*(%%%?|%)\s*"([^"\s]+)"\s*%\s*"([^"\s]+)"(\s*%\s*"?(\w+)"?)?')


def parse_sbt(text: str) -> Parsed:
    """build.sbt: `"org" %% "name" % "version"` modules, with `% Test` (or another scope) as the group."""
    deps = [
        Dependency(name=f"{org}:{name}", spec=version, group=scope.lower() if scope else "runtime")
        for org, _, name, version, _, scope in _SBT_MODULE.findall(text)
    ]
    description = re.search(r'\bdescription\s*:=\s*"([^"]+)"', text)
    return deps, description.group(1) if description else None


_MIX_DEP = re.compile(r'\{\s*:([a-z_]\w*)\s*(?:,\s*"([^"]*)")?\s*(,[^{}]*)?\}')
_MIX_ONLY = re.compile(r"only:\s*(\[[^\]]*\]|:\w+)")


def parse_mix_exs(text: str) -> Parsed:
    """mix.exs: `{:name, "~> 1.0"}` tuples in `deps`, `only: :test` as the group; the description."""
    block = re.search(r"defp?\s+deps\b.*?\bdo\b(.*?)\n\s*end\b", text, re.DOTALL)
    deps = []
    for name, spec, options in _MIX_DEP.findall(block.group(1) if block else ""):
        only = _MIX_ONLY.search(options or "")
        group = ",".join(re.findall(r"\w+", only.group(1))) if only else "runtime"
        source = re.search(r"\b(git|github|path):\s*\"([^\"]+)\"", options or "")
        deps.append(
            Dependency(name=name, spec=spec or (f"{source.group(1)} {source.group(2)}" if source else ""), group=group)
        )
    description = re.search(r'\bdescription:\s*"([^"]+)"', text)
    return deps, description.group(1) if description else None


_SWIFT_PACKAGE = re.compile(r"\.package\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)", re.DOTALL)
_SWIFT_ARGUMENT = re.compile(r'(\w+)\s*:\s*"([^"]*)"')
_SWIFT_RANGE = re.compile(r'"([^"]+)"\s*\.\.[.<]\s*"([^"]+)"')


def parse_package_swift(text: str) -> Parsed:
    """Package.swift: each `.package(url:/path:, from:/exact:/branch:/revision:/range)` dependency."""
    deps = []
    for arguments in _SWIFT_PACKAGE.findall(text):
        fields = dict(_SWIFT_ARGUMENT.findall(arguments))
        location = fields.get("url") or fields.get("path")
        if not location:
            continue
        name = fields.get("name") or location.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
        spec = next((f"{key} {fields[key]}" for key in ("from", "exact", "branch", "revision") if key in fields), "")
        if not spec and (bounds := _SWIFT_RANGE.search(arguments)):
            spec = f"{bounds.group(1)}..<{bounds.group(2)}"
        deps.append(Dependency(name=name, spec=spec or ("path" if "path" in fields else ""), group="runtime"))
    return deps, None


_PACKAGE_REFERENCE = re.compile(
    r"<PackageReference\b([^>]*?)(?:/>|>(.*?)</PackageReference>)", re.DOTALL | re.IGNORECASE
)
_XML_ATTRIBUTE = re.compile(r'(\w+)\s*=\s*"([^"]*)"')


def parse_msbuild_project(text: str) -> Parsed:
    """*.csproj / *.fsproj / *.vbproj: `<PackageReference Include=… Version=…>`; `<Description>`.

    Read with tag patterns, not an XML parser, so entities and DTDs are never expanded.
    """
    body = re.sub(r"<!--.*?-->", "", text, flags=re.DOTALL)
    if "<Project" not in body:
        raise ValueError("no <Project> element")
    deps = []
    for attributes, inner in _PACKAGE_REFERENCE.findall(body):
        fields = dict(_XML_ATTRIBUTE.findall(attributes))
        name = fields.get("Include") or fields.get("Update")
        if name:
            version = fields.get("Version") or _xml_tag(inner or "", "Version")
            private = fields.get("PrivateAssets", "").lower() == "all" or "<PrivateAssets>all" in (inner or "")
            deps.append(Dependency(name=name, spec=version, group="build" if private else "runtime"))
    return deps, _xml_tag(body, "Description") or None


def _cabal_field(text: str, name: str) -> list[str]:
    """Every value of a Cabal field (`name:` then continuation lines indented deeper)."""
    values = []
    lines = text.splitlines()
    for index, line in enumerate(lines):
        match = re.match(rf"^(\s*){name}\s*:(.*)$", line, re.IGNORECASE)
        if not match:
            continue
        indent, parts = len(match.group(1)), [match.group(2)]
        for follow in lines[index + 1 :]:
            if follow.strip() and len(follow) - len(follow.lstrip()) <= indent:
                break
            parts.append(follow)
        values.append(" ".join(part.split("--", 1)[0] for part in parts))
    return values


def parse_cabal(text: str) -> Parsed:
    """*.cabal: every `build-depends:` list (test suites and benchmarks included), and `synopsis`."""
    seen: dict[str, Dependency] = {}
    for value in _cabal_field(text, "build-depends"):
        for entry in value.split(","):
            match = re.match(r"\s*([A-Za-z][\w-]*)\s*(.*)$", entry)
            if match and match.group(1) not in seen:
                seen[match.group(1)] = Dependency(name=match.group(1), spec=match.group(2).strip(), group="runtime")
    synopsis = _cabal_field(text, "synopsis")
    return list(seen.values()), " ".join(synopsis[0].split()) if synopsis else None


def parse_pipfile(text: str) -> Parsed:
    """Pipfile: [packages] and [dev-packages]."""
    data = _toml(text)
    deps = [
        Dependency(name=str(name), spec=_poetry_spec(spec), group=group)
        for key, group in (("packages", "runtime"), ("dev-packages", "dev"))
        for name, spec in _table(data, key).items()
    ]
    return deps, None


def _toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ValueError(str(error)) from None


_JSONC_COMMENT = re.compile(r'("(?:\\.|[^"\\])*")|//[^\n]*|/\*.*?\*/', re.DOTALL)
_JSONC_TRAILING_COMMA = re.compile(r'("(?:\\.|[^"\\])*")|,(?=\s*[}\]])')


def _jsonc(text: str) -> str:
    """JSON with comments and trailing commas (deno.jsonc) as plain JSON; strings are kept as they are."""
    without_comments = _JSONC_COMMENT.sub(lambda match: match.group(1) or "", text)
    return _JSONC_TRAILING_COMMA.sub(lambda match: match.group(1) or "", without_comments)


def parse_deno_json(text: str) -> Parsed:
    """deno.json / deno.jsonc: the `imports` map (`jsr:`, `npm:` and URL specifiers)."""
    data = _json_object(_jsonc(text))
    deps = [
        Dependency(name=str(alias), spec=spec if isinstance(spec, str) else "", group="runtime")
        for alias, spec in _table(data, "imports").items()
    ]
    return deps, _text(data.get("description"))


def parse_elm_json(text: str) -> Parsed:
    """elm.json: direct and indirect dependencies (applications) or the package's dependency ranges."""
    data = _json_object(text)
    deps: list[Dependency] = []
    for key, group in (("dependencies", "runtime"), ("test-dependencies", "test")):
        table = _table(data, key)
        if "direct" in table or "indirect" in table:
            deps += _from_mapping(_table(table, "direct"), group)
            deps += _from_mapping(_table(table, "indirect"), "indirect")
        else:
            deps += _from_mapping(table, group)
    return deps, _text(data.get("summary"))


def parse_vcpkg_json(text: str) -> Parsed:
    """vcpkg.json: `dependencies`, as names or objects with a name."""
    data = _json_object(text)
    entries = data.get("dependencies")
    deps = []
    for entry in entries if isinstance(entries, list) else []:
        name = entry if isinstance(entry, str) else entry.get("name") if isinstance(entry, dict) else None
        if isinstance(name, str):
            spec = entry.get("version>=", "") if isinstance(entry, dict) else ""
            deps.append(Dependency(name=name, spec=f">={spec}" if spec else "", group="runtime"))
    return deps, _text(data.get("description"))


def _yaml_block(text: str, key: str) -> list[tuple[str, str]]:
    """`name: spec` entries of one top-level YAML mapping (a nested mapping's spec is its first value)."""
    entries: list[tuple[str, str]] = []
    inside = False
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            inside = line.split("#", 1)[0].rstrip() == f"{key}:"
            continue
        if not inside:
            continue
        match = re.match(r"^\s*([\w.-]+)\s*:\s*(.*?)\s*$", line.split(" #", 1)[0])
        if not match:
            continue
        if indent == 2:
            entries.append((match.group(1), match.group(2).strip("'\"")))
        elif entries and not entries[-1][1]:
            entries[-1] = (entries[-1][0], f"{match.group(1)} {match.group(2).strip(chr(39) + chr(34))}".strip())
    return entries


def _yaml_scalar(text: str, key: str) -> str | None:
    match = re.search(rf"^{key}\s*:\s*(.+)$", text, re.MULTILINE)
    return match.group(1).strip().strip("'\"") if match and match.group(1).strip() not in {">", "|"} else None


def _yaml_manifest(text: str, dev_key: str) -> Parsed:
    """A YAML manifest's ``dependencies`` (runtime) and ``dev_key`` (dev) blocks; its description."""
    deps = [
        Dependency(name=name, spec=spec, group=group)
        for key, group in (("dependencies", "runtime"), (dev_key, "dev"))
        for name, spec in _yaml_block(text, key)
    ]
    return deps, _yaml_scalar(text, "description")


def parse_pubspec_yaml(text: str) -> Parsed:
    """pubspec.yaml: dependencies and dev_dependencies (hosted, sdk, git or path); the description."""
    return _yaml_manifest(text, "dev_dependencies")


def parse_shard_yml(text: str) -> Parsed:
    """shard.yml (Crystal): dependencies and development_dependencies; the description."""
    return _yaml_manifest(text, "development_dependencies")


_EDN_DEP = re.compile(r'([\w.\-]+/[\w.\-]+|[\w.\-]+)\s*\{\s*:(mvn/version|git/sha|git/tag|local/root)\s+"([^"]+)"')


def parse_deps_edn(text: str) -> Parsed:
    """deps.edn: `lib {:mvn/version "…"}` (or git/local coordinates), aliases' extra deps included."""
    deps = [
        Dependency(name=name, spec=f"{kind.split('/')[1]} {value}", group="runtime")
        for name, kind, value in _EDN_DEP.findall(text)
    ]
    return deps, None


_CLJ_DEP = re.compile(r'\[\s*([\w.\-]+(?:/[\w.\-]+)?)\s+"([^"]+)"')


def parse_project_clj(text: str) -> Parsed:
    """project.clj (Leiningen): `[lib "version"]` vectors after `:dependencies`; `:description`."""
    start = text.find(":dependencies")
    deps = [
        Dependency(name=n, spec=v, group="runtime") for n, v in _CLJ_DEP.findall(text[start:] if start >= 0 else "")
    ]
    description = re.search(r':description\s+"([^"]+)"', text)
    return deps, description.group(1) if description else None


def _top_level_items(body: str) -> list[str]:
    """The comma-separated items of an Erlang list body, commas inside tuples and strings left alone."""
    items: list[str] = []
    current: list[str] = []
    depth, quoted = 0, False
    for char in body:
        if char == '"':
            quoted = not quoted
        elif not quoted and char in "{[":
            depth += 1
        elif not quoted and char in "}]":
            depth -= 1
        elif not quoted and char == "," and depth == 0:
            items.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    items.append("".join(current).strip())
    return [item for item in items if item]


def parse_rebar_config(text: str) -> Parsed:
    """rebar.config (Erlang): the `{deps, [...]}` list: bare names, `{name, "vsn"}`, `{name, {git, …}}`."""
    block = re.search(r"\{\s*deps\s*,\s*\[(.*?)\]\s*\}\s*\.", text, re.DOTALL)
    deps = []
    for item in _top_level_items(block.group(1) if block else ""):
        if bare := re.fullmatch(r"[a-z]\w*", item):
            deps.append(Dependency(name=bare.group(), spec="", group="runtime"))
        elif entry := re.match(r'\{\s*([a-z]\w*)\s*,\s*(?:"([^"]*)"|\{\s*(\w+))', item):
            deps.append(Dependency(name=entry.group(1), spec=entry.group(2) or entry.group(3) or "", group="runtime"))
    return deps, None


def parse_dune_project(text: str) -> Parsed:
    """dune-project (OCaml): the `(depends …)` of each package: atoms or `(name constraint)` lists."""
    deps: dict[str, Dependency] = {}
    for block in re.finditer(r"\(depends\b", text):
        depth, index, body = 1, block.end(), []
        while index < len(text) and depth:
            char = text[index]
            depth += {"(": 1, ")": -1}.get(char, 0)
            body.append(char)
            index += 1
        inner = "".join(body[:-1])
        level, start_of_list = 0, False
        for token in re.finditer(r"\(|\)|[^\s()]+", inner):
            value = token.group()
            if value == "(":
                level += 1
                start_of_list = True
                continue
            if value == ")":
                level -= 1
                continue
            if level == 0 or (level == 1 and start_of_list):
                deps.setdefault(value, Dependency(name=value, spec="", group="runtime"))
            start_of_list = False
    synopsis = re.search(r'\(synopsis\s+"([^"]+)"\)', text)
    return list(deps.values()), synopsis.group(1) if synopsis else None


def parse_nimble(text: str) -> Parsed:
    """*.nimble: `requires "a >= 1", "b"` lines; `description = "…"`."""
    deps = []
    for line in re.findall(r"^\s*requires\b(.*)$", text, re.MULTILINE):
        for entry in re.findall(r'"([^"]+)"', line):
            name, _, spec = entry.strip().partition(" ")
            deps.append(Dependency(name=name, spec=spec.strip(), group="runtime"))
    description = re.search(r'^\s*description\s*=\s*"([^"]+)"', text, re.MULTILINE)
    return deps, description.group(1) if description else None


def parse_meson_build(text: str) -> Parsed:
    """meson.build: `dependency('name', version: '…')` calls."""
    deps = [
        Dependency(name=name, spec=version, group="runtime")
        for name, version in re.findall(r"""\bdependency\s*\(\s*'([^']+)'(?:[^)]*?version\s*:\s*'([^']*)')?""", text)
    ]
    return deps, None


def parse_gemspec(text: str) -> Parsed:
    """*.gemspec: add_dependency / add_runtime_dependency / add_development_dependency; the summary."""
    deps = [
        Dependency(name=name, spec=spec, group="dev" if kind.startswith("development") else "runtime")
        for kind, name, spec in re.findall(
            r"""\.add_(runtime_|development_)?dependency\s*\(?\s*["']([^"']+)["']\s*(?:,\s*["']([^"']+)["'])?""", text
        )
    ]
    summary = re.search(r"""\.summary\s*=\s*["']([^"']+)["']""", text)
    return deps, summary.group(1) if summary else None


def parse_setup_cfg(text: str) -> Parsed:
    """setup.cfg: `install_requires` (runtime) and `[options.extras_require]` (optional); the description."""
    section = ""
    deps: list[Dependency] = []
    collecting: str | None = None
    description = None
    for line in text.splitlines():
        stripped = line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if re.match(r"^\[.+\]$", stripped):
            section, collecting = stripped[1:-1], None
            continue
        if line[:1].isspace() and collecting and stripped:
            deps += _pep508([stripped], collecting)
            continue
        key, _, value = stripped.partition("=")
        key, value = key.strip(), value.strip()
        collecting = None
        if section == "options" and key == "install_requires":
            collecting = "runtime"
        elif section == "options.extras_require" and key:
            collecting = f"optional {key}"
        elif section == "metadata" and key == "description":
            description = value or None
        if collecting and value:
            deps += _pep508([value], collecting)
    return deps, description


def parse_setup_py(text: str) -> Parsed:
    """setup.py: string literals of a literal `install_requires=[…]` list; `description="…"`."""
    block = re.search(r"install_requires\s*=\s*\[(.*?)\]", text, re.DOTALL)
    requirements = re.findall(r"""["']([^"']+)["']""", block.group(1)) if block else []
    description = re.search(r"""\bdescription\s*=\s*["']([^"']+)["']""", text)
    return _pep508(requirements, "runtime"), description.group(1) if description else None


def parse_conanfile_py(text: str) -> Parsed:
    """conanfile.py: `requires = "a/1.0", …` and `self.requires("a/1.0")`."""
    names = re.findall(
        r"""["']([\w.+-]+/[\w.+\-\[\]<>=~^ ,]+?)(?:@[\w/]+)?["']""",
        " ".join(re.findall(r"(?:requires\s*=\s*[\[(]?[^\n]*|self\.(?:tool_|test_)?requires\s*\([^)]*\))", text)),
    )
    deps = []
    for reference in names:
        name, _, version = reference.partition("/")
        deps.append(Dependency(name=name, spec=version, group="runtime"))
    return deps, None


def parse_stack_yaml(text: str) -> Parsed:
    """stack.yaml: the resolver (as a dependency on the snapshot) and `extra-deps` entries."""
    deps = []
    if resolver := _yaml_scalar(text, "resolver") or _yaml_scalar(text, "snapshot"):
        deps.append(Dependency(name="stackage", spec=resolver, group="build"))
    block = re.search(r"^extra-deps\s*:\s*\n((?:[ \t]+-.*\n?)+)", text, re.MULTILINE)
    for entry in re.findall(r"^\s*-\s*(\S+)", block.group(1), re.MULTILINE) if block else []:
        name, _, version = entry.rpartition("-") if re.search(r"-\d", entry) else (entry, "", "")
        deps.append(Dependency(name=name or entry, spec=version, group="runtime"))
    return deps, None


def parse_cmakelists(text: str) -> Parsed:
    """CMakeLists.txt: `find_package(Name [version])` calls; the project's DESCRIPTION."""
    deps = [
        Dependency(name=name, spec=version, group="runtime")
        for name, version in re.findall(r"\bfind_package\s*\(\s*([\w-]+)(?:\s+([\d.]+))?", text, re.IGNORECASE)
    ]
    description = re.search(r'\bproject\s*\([^)]*DESCRIPTION\s+"([^"]+)"', text, re.IGNORECASE | re.DOTALL)
    return deps, description.group(1) if description else None
