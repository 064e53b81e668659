"""Manifest readers: dependencies and descriptions from each format; bad input is reported, never run."""

from __future__ import annotations

import pytest

from sextant.analyzer.evidence.manifest_parsers import Dependency
from sextant.analyzer.evidence.manifests import manifest_ecosystem, parse_manifest


def names(path: str, text: str) -> list[tuple[str, str, str]]:
    manifest = parse_manifest(path, text)
    assert manifest.error is None, manifest.error
    return [(d.name, d.spec, d.group) for d in manifest.dependencies]


def test_requirements_txt() -> None:
    text = (
        "# pinned\nrequests==2.31.0  # http\n-r base.txt\n-e .\nuvicorn[standard]>=0.29; python_version>'3.8'\nflask\n"
    )
    assert names("requirements-dev.txt", text) == [
        ("requests", "==2.31.0", "runtime"),
        ("uvicorn", ">=0.29", "runtime"),
        ("flask", "", "runtime"),
    ]


def test_go_mod() -> None:
    text = (
        "module example.com/x\n\ngo 1.22\n\nrequire github.com/a/b v1.2.3\n\nrequire (\n"
        "\tgithub.com/c/d v0.1.0\n\tgolang.org/x/sys v0.20.0 // indirect\n)\n"
    )
    assert names("go.mod", text) == [
        ("github.com/a/b", "v1.2.3", "runtime"),
        ("github.com/c/d", "v0.1.0", "runtime"),
        ("golang.org/x/sys", "v0.20.0", "indirect"),
    ]


def test_cargo_toml() -> None:
    text = (
        '[package]\nname = "x"\ndescription = "X."\n\n'
        '[dependencies]\nserde = { version = "1", features = ["derive"] }\n'
        'tokio = "1.37"\nlocal = { path = "../local" }\n\n[dev-dependencies]\ninsta = { workspace = true }\n'
    )
    assert names("Cargo.toml", text) == [
        ("serde", "1", "runtime"),
        ("tokio", "1.37", "runtime"),
        ("local", "path ../local", "runtime"),
        ("insta", "workspace", "dev"),
    ]
    assert parse_manifest("Cargo.toml", text).description == "X."


def test_gemfile() -> None:
    text = "source 'https://rubygems.org'\ngem 'rails', '~> 7.1'\ngroup :development, :test do\n  gem \"rspec\"\nend\n"
    assert names("Gemfile", text) == [
        ("rails", "~> 7.1", "runtime"),
        ("rspec", "", "group development, test"),
    ]


def test_composer_json_skips_platform_requirements() -> None:
    text = '{"description": "A lib", "require": {"php": ">=8.1", "ext-json": "*", "monolog/monolog": "^3"}}'
    assert names("composer.json", text) == [("monolog/monolog", "^3", "runtime")]


def test_pom_xml_without_expanding_entities() -> None:
    text = (
        '<?xml version="1.0"?>\n<!DOCTYPE project [<!ENTITY boom "&boom;&boom;">]>\n<project>\n'
        "<description>Billing service</description>\n<dependencies>\n"
        "<dependency><groupId>org.junit</groupId><artifactId>junit</artifactId><version>5.10</version>"
        "<scope>test</scope></dependency>\n<!-- <dependency><artifactId>gone</artifactId></dependency> -->\n"
        "<dependency><groupId>com.acme</groupId><artifactId>core</artifactId></dependency>\n"
        "</dependencies>\n</project>\n"
    )
    assert names("pom.xml", text) == [("org.junit:junit", "5.10", "test"), ("com.acme:core", "", "compile")]
    assert parse_manifest("pom.xml", text).description == "Billing service"


def test_poetry_tables() -> None:
    text = (
        '[tool.poetry]\ndescription = "Poetic."\n[tool.poetry.dependencies]\npython = "^3.11"\n'
        'requests = "^2"\n[tool.poetry.group.test.dependencies]\npytest = { version = "^8" }\n'
    )
    assert names("pyproject.toml", text) == [("requests", "^2", "runtime"), ("pytest", "^8", "test")]


@pytest.mark.parametrize(
    ("path", "text"),
    [
        ("package.json", "{not json"),
        ("package.json", "[1, 2]"),
        ("package.json", "[" * 100_000),
        ("pyproject.toml", "[project\n"),
        ("pom.xml", "<html></html>"),
    ],
)
def test_unreadable_manifests_say_why(path: str, text: str) -> None:
    manifest = parse_manifest(path, text)
    assert manifest.dependencies == ()
    assert manifest.error is not None
    assert manifest.error.startswith("could not be read")


def test_which_files_are_manifests() -> None:
    assert manifest_ecosystem("web/package.json") == "npm"
    assert manifest_ecosystem("requirements.txt") == "python"
    assert manifest_ecosystem("requirements/prod.txt") is None
    assert manifest_ecosystem("node_modules/x/package.json") is None
    assert manifest_ecosystem("README.md") is None
    assert Dependency("a", "", "runtime").spec == ""
