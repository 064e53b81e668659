"""Symbols for the languages whose grammars ship as offline PyPI packages, and components' scripts."""

from __future__ import annotations

from pathlib import Path

import pytest

from sextant.parsing import build_chunks, language_for_path, parse_symbols

SAMPLES = Path(__file__).parent / "samples"

SOURCES: dict[str, str] = {
    "Shapes.swift": (
        "struct Point {\n    var x: Int\n    func norm() -> Int {\n        return x\n    }\n}\n\n"
        "protocol Shape {\n    func area() -> Double\n}\n\nfunc top(x: Int) -> Int {\n    return x\n}\n"
    ),
    "Main.scala": (
        'package demo\n\nclass Greeter(name: String) {\n  def greet(): String = "hi"\n}\n\n'
        'object Main {\n  def main(args: Array[String]): Unit = println("x")\n}\n\n'
        "trait Shape {\n  def area: Double\n}\n"
    ),
    "mod.lua": (
        "local M = {}\nfunction M.greet(name)\n  return 'hi ' .. name\nend\n"
        "local function helper()\n  return 1\nend\nreturn M\n"
    ),
    "build.sh": "#!/bin/bash\ngreet() {\n  echo hi\n}\nfunction build {\n  make\n}\ngreet\n",
    "greeter.ex": (
        'defmodule Greeter do\n  def greet(name), do: "hi #{name}"\n\n  defp helper do\n    1\n  end\n\n'
        "  defmacro m(x), do: x\nend\n"
    ),
    "Main.hs": (
        "module Main where\n\ndata Shape = Circle Double | Square Double\n\narea :: Shape -> Double\n"
        "area (Circle r) = r\narea (Square s) = s\n\nmain :: IO ()\nmain = print 1\n"
    ),
    "main.tf": 'resource "aws_instance" "web" {\n  ami = "x"\n}\n\nvariable "region" {\n  default = "eu"\n}\n',
    "schema.sql": (
        "CREATE TABLE users (id INT PRIMARY KEY, name TEXT);\n\nCREATE VIEW active AS SELECT * FROM users;\n"
    ),
    "greeter.dart": "class Greeter {\n  String greet() {\n    return 'hi';\n  }\n}\n\nenum Color { red }\n",
    "main.zig": 'const std = @import("std");\n\npub fn main() void {}\n\nfn helper(x: u32) u32 {\n    return x;\n}\n',
    "Hello.vue": (
        '<template>\n  <div>{{ msg }}</div>\n</template>\n\n<script setup lang="ts">\nimport { ref } from "vue"\n'
        'const msg = ref("hi")\nfunction greet(name: string): string {\n  return name\n}\n</script>\n\n'
        "<style>\ndiv { color: red; }\n</style>\n"
    ),
    "Hello.svelte": (
        '<script>\n  export let name = "world";\n  function shout() {\n    return name;\n  }\n</script>\n\n'
        "<h1>{name}</h1>\n"
    ),
}

EXPECTED: dict[str, set[tuple[str, str | None, str | None]]] = {
    "Greeter.kt": {
        ("class", "Greeter", None),
        ("method", "greet", "Greeter"),
        ("class", "Companion", "Greeter"),
        ("method", "make", "Companion"),
        ("class", "Registry", None),
        ("method", "area", "Shape"),
        ("function", "top", None),
    },
    "Shapes.swift": {("class", "Point", None), ("method", "norm", "Point"), ("interface", "Shape", None)},
    "Main.scala": {("class", "Greeter", None), ("method", "main", "Main"), ("trait", "Shape", None)},
    "mod.lua": {("function", "M.greet", None), ("function", "helper", None)},
    "build.sh": {("function", "greet", None), ("function", "build", None)},
    "greeter.ex": {
        ("module", "Greeter", None),
        ("function", "greet", "Greeter"),
        ("function", "helper", "Greeter"),
        ("macro", "m", "Greeter"),
    },
    "Main.hs": {("type", "Shape", None), ("function", "area", None), ("function", "main", None)},
    "main.tf": {("block", 'resource "aws_instance" "web"', None), ("block", 'variable "region"', None)},
    "schema.sql": {("table", "users", None), ("view", "active", None)},
    "greeter.dart": {("class", "Greeter", None), ("enum", "Color", None)},
    "main.zig": {("function", "main", None), ("function", "helper", None)},
    "Hello.vue": {("function", "greet", None)},
    "Hello.svelte": {("function", "shout", None)},
}


def _source(name: str) -> str:
    return SOURCES[name] if name in SOURCES else (SAMPLES / name).read_text()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_symbols_of_each_language(name: str) -> None:
    symbols = parse_symbols(name, _source(name))
    found = {(symbol.symbol_type, symbol.name, symbol.parent) for symbol in symbols}
    assert EXPECTED[name] <= found, found


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_every_non_blank_line_is_in_a_chunk(name: str) -> None:
    source = _source(name)
    chunks = build_chunks(name, source, max_chars=2000)
    covered = {line for chunk in chunks for line in range(chunk.start_line, chunk.end_line + 1)}
    for number, line in enumerate(source.split("\n"), start=1):
        if line.strip():
            assert number in covered, (name, number, line)


def test_component_scripts_keep_file_line_numbers() -> None:
    [greet] = [symbol for symbol in parse_symbols("Hello.vue", SOURCES["Hello.vue"]) if symbol.name == "greet"]
    assert (greet.start_line, greet.end_line, greet.language) == (8, 10, "typescript")
    assert greet.source.startswith("function greet(name: string)")


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("go.mod", "go-module"),
        ("build.gradle", "groovy"),
        ("build.gradle.kts", "kotlin"),
        ("build.sbt", "scala"),
        ("mix.exs", "elixir"),
        ("Pipfile", "toml"),
        ("deno.json", "json"),
        ("deno.jsonc", "json"),
        ("deps.edn", "clojure"),
        ("project.clj", "clojure"),
        ("meson.build", "meson"),
        ("rebar.config", "erlang"),
        ("dune-project", "dune"),
        ("App.csproj", "xml"),
        ("Lib.fsproj", "xml"),
        ("Old.vbproj", "xml"),
        ("mylib.cabal", "cabal"),
        ("pkg.nimble", "nim"),
        ("Gemfile", "ruby"),
        ("composer.json", "json"),
        ("Package.swift", "swift"),
        ("pubspec.yaml", "yaml"),
        ("CMakeLists.txt", "cmake"),
    ],
)
def test_manifests_are_named(path: str, language: str) -> None:
    assert language_for_path(path) == language


def test_a_gradle_kotlin_manifest_is_parsed() -> None:
    source = 'plugins {\n    kotlin("jvm") version "2.0.0"\n}\n\ndependencies {\n    implementation("a:b:1")\n}\n'
    chunks = build_chunks("build.gradle.kts", source, max_chars=2000)
    assert chunks
    assert "implementation" in " ".join(chunk.text for chunk in chunks)
