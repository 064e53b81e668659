"""Readers of the other build manifests: each format's usual declarations, and nothing is ever run."""

from __future__ import annotations

import pytest

from sextant.analyzer.evidence.manifests import manifest_ecosystem, parse_manifest


def deps(path: str, text: str) -> list[tuple[str, str, str]]:
    manifest = parse_manifest(path, text)
    assert manifest.error is None, manifest.error
    return [(d.name, d.spec, d.group) for d in manifest.dependencies]


def test_gradle_groovy_and_kotlin() -> None:
    groovy = (
        "plugins { id 'java' }\ndescription = 'A server'\ndependencies {\n"
        "  implementation 'com.google.guava:guava:33.0-jre'\n  testImplementation \"junit:junit:4.13.2\"\n"
        "  api project(':core')\n}\n"
    )
    assert deps("build.gradle", groovy) == [
        ("com.google.guava:guava", "33.0-jre", "runtime"),
        ("junit:junit", "4.13.2", "test"),
        (":core", "project", "runtime"),
    ]
    assert parse_manifest("build.gradle", groovy).description == "A server"
    kotlin = (
        'dependencies {\n  implementation("io.ktor:ktor-server-core:2.3.7")\n  implementation(libs.kotlinx.json)\n}\n'
    )
    assert deps("app/build.gradle.kts", kotlin) == [
        ("io.ktor:ktor-server-core", "2.3.7", "runtime"),
        ("libs.kotlinx.json", "version catalog", "runtime"),
    ]


def test_sbt() -> None:
    text = (
        'libraryDependencies ++= Seq(\n  "org.typelevel" %% "cats-core" % "2.10.0",\n'
        '  "org.scalatest" %% "scalatest" % "3.2.17" % Test\n)\n'
    )
    assert deps("build.sbt", text) == [
        ("org.typelevel:cats-core", "2.10.0", "runtime"),
        ("org.scalatest:scalatest", "3.2.17", "test"),
    ]


def test_mix_exs() -> None:
    text = (
        'defmodule App.MixProject do\n  def project do\n    [app: :app, description: "Chat server"]\n  end\n\n'
        '  defp deps do\n    [\n      {:phoenix, "~> 1.7"},\n      {:credo, "~> 1.7", only: [:dev, :test]},\n'
        '      {:local, path: "../local"}\n    ]\n  end\nend\n'
    )
    assert deps("mix.exs", text) == [
        ("phoenix", "~> 1.7", "runtime"),
        ("credo", "~> 1.7", "dev,test"),
        ("local", "path ../local", "runtime"),
    ]
    assert parse_manifest("mix.exs", text).description == "Chat server"


def test_package_swift() -> None:
    text = (
        'let package = Package(\n  name: "Tool",\n  dependencies: [\n'
        '    .package(url: "https://github.com/apple/swift-nio.git", from: "2.62.0"),\n'
        '    .package(url: "https://github.com/apple/swift-log", "1.0.0"..<"2.0.0"),\n'
        '    .package(path: "../Shared"),\n  ]\n)\n'
    )
    assert deps("Package.swift", text) == [
        ("swift-nio", "from 2.62.0", "runtime"),
        ("swift-log", "1.0.0..<2.0.0", "runtime"),
        ("Shared", "path", "runtime"),
    ]


def test_msbuild_projects() -> None:
    text = (
        '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup><Description>Billing API</Description></PropertyGroup>\n'
        '  <ItemGroup>\n    <PackageReference Include="Newtonsoft.Json" Version="13.0.3" />\n'
        '    <PackageReference Include="StyleCop.Analyzers" Version="1.1.118" PrivateAssets="all" />\n'
        '    <!-- <PackageReference Include="Old" Version="1" /> -->\n'
        '    <PackageReference Include="Serilog"><Version>3.1.1</Version></PackageReference>\n'
        "  </ItemGroup>\n</Project>\n"
    )
    assert deps("src/Billing/Billing.csproj", text) == [
        ("Newtonsoft.Json", "13.0.3", "runtime"),
        ("StyleCop.Analyzers", "1.1.118", "build"),
        ("Serilog", "3.1.1", "runtime"),
    ]
    assert parse_manifest("Billing.csproj", text).description == "Billing API"
    assert parse_manifest("x.fsproj", "not xml").error is not None


def test_cabal() -> None:
    text = (
        "name: mylib\nsynopsis: Fast parsing\n\nlibrary\n  build-depends:\n      base >=4.14 && <5\n"
        "    , text\n    -- a comment\n    , containers ^>=0.6\n\ntest-suite spec\n  build-depends: base, hspec\n"
    )
    assert deps("mylib.cabal", text) == [
        ("base", ">=4.14 && <5", "runtime"),
        ("text", "", "runtime"),
        ("containers", "^>=0.6", "runtime"),
        ("hspec", "", "runtime"),
    ]
    assert parse_manifest("mylib.cabal", text).description == "Fast parsing"


def test_pipfile_and_setup_files() -> None:
    pipfile = '[packages]\nrequests = "*"\nflask = {version = ">=3"}\n\n[dev-packages]\npytest = "*"\n'
    assert deps("Pipfile", pipfile) == [
        ("requests", "*", "runtime"),
        ("flask", ">=3", "runtime"),
        ("pytest", "*", "dev"),
    ]
    setup_cfg = (
        "[metadata]\ndescription = Tiny tool\n\n[options]\ninstall_requires =\n    click>=8\n    rich\n\n"
        "[options.extras_require]\ndocs = sphinx\n"
    )
    assert deps("setup.cfg", setup_cfg) == [
        ("click", ">=8", "runtime"),
        ("rich", "", "runtime"),
        ("sphinx", "", "optional docs"),
    ]
    setup_py = 'setup(name="x", description="Old style", install_requires=["six>=1.16", "attrs"])\n'
    assert deps("setup.py", setup_py) == [("six", ">=1.16", "runtime"), ("attrs", "", "runtime")]


def test_deno_jsonc_with_comments_and_trailing_commas() -> None:
    text = (
        '{\n  // the import map\n  "imports": {\n    "@std/assert": "jsr:@std/assert@^1.0.0",\n'
        '    "chalk": "npm:chalk@5", /* colours */\n  },\n  "tasks": {"dev": "deno run -A http://x//y"},\n}\n'
    )
    assert deps("deno.jsonc", text) == [
        ("@std/assert", "jsr:@std/assert@^1.0.0", "runtime"),
        ("chalk", "npm:chalk@5", "runtime"),
    ]


def test_pubspec_yaml() -> None:
    text = (
        "name: app\ndescription: A Flutter app\nenvironment:\n  sdk: '>=3.0.0 <4.0.0'\ndependencies:\n"
        "  flutter:\n    sdk: flutter\n  http: ^1.1.0\n  shared:\n    path: ../shared\ndev_dependencies:\n"
        "  lints: ^3.0.0 # lints\n"
    )
    assert deps("pubspec.yaml", text) == [
        ("flutter", "sdk flutter", "runtime"),
        ("http", "^1.1.0", "runtime"),
        ("shared", "path ../shared", "runtime"),
        ("lints", "^3.0.0", "dev"),
    ]
    assert parse_manifest("pubspec.yaml", text).description == "A Flutter app"


def test_clojure_erlang_ocaml_nim_meson() -> None:
    edn = '{:deps {org.clojure/clojure {:mvn/version "1.11.1"} io.github/lib {:git/sha "abc123"}}}'
    assert deps("deps.edn", edn) == [
        ("org.clojure/clojure", "version 1.11.1", "runtime"),
        ("io.github/lib", "sha abc123", "runtime"),
    ]
    clj = (
        '(defproject app "0.1.0"\n  :description "A web app"\n'
        '  :dependencies [[org.clojure/clojure "1.10.0"] [ring "1.9.0"]])'
    )
    assert deps("project.clj", clj) == [("org.clojure/clojure", "1.10.0", "runtime"), ("ring", "1.9.0", "runtime")]
    rebar = (
        "{erl_opts, [debug_info]}.\n"
        '{deps, [lager, {cowboy, "2.9.0"}, {jsx, {git, "https://x/jsx.git", {tag, "v3"}}}]}.\n'
    )
    assert deps("rebar.config", rebar) == [
        ("lager", "", "runtime"),
        ("cowboy", "2.9.0", "runtime"),
        ("jsx", "git", "runtime"),
    ]
    dune = '(lang dune 3.0)\n(package\n (name app)\n (synopsis "A tool")\n (depends (ocaml (>= 4.14)) dune yojson))\n'
    assert deps("dune-project", dune) == [("ocaml", "", "runtime"), ("dune", "", "runtime"), ("yojson", "", "runtime")]
    nimble = 'version = "0.1.0"\ndescription = "Nim tool"\nrequires "nim >= 1.6.0", "jester"\n'
    assert deps("tool.nimble", nimble) == [("nim", ">= 1.6.0", "runtime"), ("jester", "", "runtime")]
    meson = "project('x', 'c')\nglib = dependency('glib-2.0', version: '>=2.56')\nm = dependency('m')\n"
    assert deps("meson.build", meson) == [("glib-2.0", ">=2.56", "runtime"), ("m", "", "runtime")]


def test_gemspec_elm_vcpkg_cmake_conan_stack_shard() -> None:
    gemspec = (
        'Gem::Specification.new do |s|\n  s.summary = "Rack thing"\n'
        '  s.add_dependency "rack", "~> 3.0"\n  s.add_development_dependency "rspec"\nend\n'
    )
    assert deps("thing.gemspec", gemspec) == [("rack", "~> 3.0", "runtime"), ("rspec", "", "dev")]
    elm = (
        '{"type": "application", "dependencies": {"direct": {"elm/core": "1.0.5"}, "indirect": {"elm/json": "1.1.3"}}}'
    )
    assert deps("elm.json", elm) == [("elm/core", "1.0.5", "runtime"), ("elm/json", "1.1.3", "indirect")]
    vcpkg = '{"name": "app", "dependencies": ["fmt", {"name": "boost-asio", "version>=": "1.83.0"}]}'
    assert deps("vcpkg.json", vcpkg) == [("fmt", "", "runtime"), ("boost-asio", ">=1.83.0", "runtime")]
    cmake = (
        'project(App VERSION 1.0 DESCRIPTION "A renderer")\nfind_package(OpenGL REQUIRED)\nfind_package(Boost 1.70)\n'
    )
    assert deps("CMakeLists.txt", cmake) == [("OpenGL", "", "runtime"), ("Boost", "1.70", "runtime")]
    conan = 'class App(ConanFile):\n    requires = "zlib/1.2.13", "fmt/10.1.1"\n'
    assert deps("conanfile.py", conan) == [("zlib", "1.2.13", "runtime"), ("fmt", "10.1.1", "runtime")]
    stack = "resolver: lts-22.7\nextra-deps:\n  - acme-missiles-0.3\n"
    assert deps("stack.yaml", stack) == [("stackage", "lts-22.7", "build"), ("acme-missiles", "0.3", "runtime")]
    shard = "name: app\ndependencies:\n  kemal:\n    github: kemalcr/kemal\n"
    assert deps("shard.yml", shard) == [("kemal", "github kemalcr/kemal", "runtime")]


@pytest.mark.parametrize(
    ("path", "ecosystem"),
    [
        ("go.mod", "go"),
        ("build.gradle.kts", "gradle"),
        ("Web.csproj", "nuget"),
        ("lib.cabal", "hackage"),
        ("pubspec.yaml", "pub"),
        ("deno.jsonc", "deno"),
        ("Pipfile", "python"),
        ("vendor/x/build.gradle", None),
        ("notes.csproj.md", None),
    ],
)
def test_ecosystem_by_name_and_by_suffix(path: str, ecosystem: str | None) -> None:
    assert manifest_ecosystem(path) == ecosystem
