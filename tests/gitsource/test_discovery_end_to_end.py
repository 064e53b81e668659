"""Every manifest and text file of a real repository is indexed; every other file is reported."""

from __future__ import annotations

from pathlib import Path

from sextant.indexer import index_repository
from sextant.indexer.discovery import (
    SKIP_BINARY,
    SKIP_EXCLUDED,
    SKIP_NOT_REGULAR,
    SKIP_TOO_LARGE,
    SKIP_VENDORED,
    DiscoveryRules,
)

from ..conftest import GitRepo
from ..indexer.conftest import HashingTestEmbedder, IndexHarness, make_deps, open_store

MANIFESTS = {
    "go.mod": "module example.com/app\n\ngo 1.22\n\nrequire github.com/pkg/errors v0.9.1\n",
    "build.gradle": "plugins { id 'java' }\ndependencies { implementation 'a:b:1' }\n",
    "build.gradle.kts": 'plugins {\n    kotlin("jvm") version "2.0.0"\n}\n',
    "build.sbt": 'libraryDependencies += "org" %% "lib" % "1.0"\n',
    "mix.exs": "defmodule App.MixProject do\n  use Mix.Project\n  def project, do: [app: :app]\nend\n",
    "Pipfile": '[packages]\nrequests = "*"\n',
    "deno.json": '{"imports": {"std/": "https://deno.land/std/"}}\n',
    "deno.jsonc": '// deps\n{"imports": {}}\n',
    "deps.edn": '{:deps {org.clojure/clojure {:mvn/version "1.11.1"}}}\n',
    "project.clj": '(defproject app "0.1.0" :dependencies [[org.clojure/clojure "1.11.1"]])\n',
    "meson.build": "project('app', 'c')\ndep = dependency('glib-2.0')\n",
    "rebar.config": "{deps, [cowboy]}.\n",
    "dune-project": "(lang dune 3.0)\n",
    "App.csproj": '<Project Sdk="Microsoft.NET.Sdk">\n<PackageReference Include="X" />\n</Project>\n',
    "Lib.fsproj": "<Project></Project>\n",
    "Old.vbproj": "<Project></Project>\n",
    "app.cabal": "name: app\nbuild-depends: base\n",
    "app.nimble": 'requires "nim >= 2.0"\n',
    "Gemfile": "source 'https://rubygems.org'\ngem 'rails'\n",
    "composer.json": '{"require": {"monolog/monolog": "^3"}}\n',
    "Package.swift": '// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: "App")\n',
    "pubspec.yaml": "name: app\ndependencies:\n  http: ^1.0.0\n",
}
OTHER_TEXT = {"LICENSE": "MIT License\n", "scripts/deploy": "#!/bin/sh\necho deploy\n", "data/rows.csv": "a,b\n1,2\n"}


async def test_manifests_and_text_files_indexed_the_rest_reported(git_repo: GitRepo, tmp_path: Path) -> None:
    for path, text in {**MANIFESTS, **OTHER_TEXT}.items():
        git_repo.write(path, text)
    git_repo.write("logo.png", b"\x89PNG\r\n\x1a\n\x00\x00")
    git_repo.write("blob", b"\x00\x01\x02 binary without an extension")
    git_repo.write("big.txt", "x" * 3000 + "\n")
    git_repo.write("node_modules/left-pad/index.js", "module.exports = 1\n")
    git_repo.write("legacy/old.py", "x = 1\n")
    (git_repo.root / "link.md").symlink_to("LICENSE")
    git_repo.commit("everything")

    embedder = HashingTestEmbedder()
    store = open_store(tmp_path, embedder)
    rules = DiscoveryRules(excludes=(*DiscoveryRules().excludes, "legacy/*"), max_file_bytes=2000)
    harness = IndexHarness(git_repo, make_deps(tmp_path, embedder, store, rules))
    request = harness.request()
    indexed = await index_repository(request, harness.recency(request), harness.deps)

    stored = set(harness.by_path())
    assert set(MANIFESTS) <= stored
    assert set(OTHER_TEXT) <= stored
    skipped = {group.reason: group.paths for group in indexed.skipped}
    assert skipped == {
        SKIP_BINARY: ["blob", "logo.png"],
        SKIP_TOO_LARGE: ["big.txt"],
        SKIP_VENDORED: ["node_modules/left-pad/index.js"],
        SKIP_EXCLUDED: ["legacy/old.py"],
        SKIP_NOT_REGULAR: ["link.md"],
    }
    assert all(group.count == len(group.paths) for group in indexed.skipped)
    assert stored.isdisjoint(path for paths in skipped.values() for path in paths)
    store.close()
