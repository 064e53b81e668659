"""Rules learned on real documentation: what a careful reader would not call a claim about the code."""

from __future__ import annotations

from collections.abc import Callable

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_claims import CodeFacts, check_claims, extract_claims

MakeChunk = Callable[..., ChunkPayload]


def targets(text: str, doc: str = "docs/guide.md") -> list[tuple[str, str, bool]]:
    return [(c.kind, c.target, c.explicit) for c in extract_claims(doc, text)]


def test_names_the_docs_own_sample_defines_are_weak_but_used_names_stay_firm() -> None:
    text = (
        "```python\n"
        "from acme.auth import authenticate_user\n"
        "def handle_form(unit_of_work, mail_q):\n"
        "    db = authenticate_user(unit_of_work)\n"
        "```\n"
        "`handle_form()` gets `unit_of_work`; it calls `authenticate_user()`.\n"
    )
    assert targets(text) == [
        ("symbol", "acme.auth.authenticate_user", True),
        ("symbol", "acme.auth.authenticate_user", True),  # its use in the sample, on the line that calls it
        ("symbol", "handle_form", False),
        ("symbol", "unit_of_work", False),
        ("symbol", "authenticate_user", False),  # imported by the sample: the import line is the firm claim
    ]


def test_myst_roles_blockquoted_fences_and_nested_fences() -> None:
    text = (
        "See {func}`acme.auth.login` and {term}`service`.\n"
        "> ```bash\n"
        "> acme index --force\n"
        "> ```\n"
        ":::{tip}\n"
        "    ```sh\n"
        "    acme show\n"
        "    ```\n"
        ":::\n"
    )
    claims = [(c.line, c.kind, c.target) for c in extract_claims("docs/a.md", text)]
    assert claims == [
        (1, "symbol", "acme.auth.login"),
        (3, "cli", "acme index"),
        (3, "flag", "--force"),
        (7, "cli", "acme show"),
    ]


def test_spaced_literal_is_a_command_only_with_a_sign_of_one() -> None:
    assert targets("rendered in a `monospace font`.\n") == []
    assert targets("Run `acme index` first.\n") == [("cli", "acme index", True)]
    assert targets("Then `acme index --force`.\n") == [("cli", "acme index", True), ("flag", "--force", True)]


def test_new_things_tools_generated_folders_and_reference_links() -> None:
    assert targets("Suppose we add a new `phone` field, or define `make_user()`.\n") == []
    assert targets("To invoke `pytest` directly, use `tox`.\n") == []
    assert targets("Run `source .venv/bin/activate`; output lands in `docs/_build/html`.\n") == []
    assert targets("Same as `dataclasses`, see the `dataclasses docs <dataclasses>`_.\n", doc="a.rst") == []
    assert targets("In `svcs.your_framework`, `get_X`, `exampleField` and a `.c` file.\n") == []


def test_upper_case_names_are_firm_env_claims_only_where_the_environment_is_discussed() -> None:
    assert targets("Pass `OPT_NAIVE_UTC` to keep naive datetimes.\n") == [("env", "OPT_NAIVE_UTC", False)]
    assert targets("Set the `QDRANT_URL` environment variable.\n") == [("env", "QDRANT_URL", True)]
    doc = "# Environment variables\n\n| name | use |\n|---|---|\n| `QDRANT_URL` | server |\n"
    assert targets(doc) == [("env", "QDRANT_URL", True)]


def test_declared_programs_decide_whose_command_it_is(chunk: MakeChunk) -> None:
    facts = CodeFacts.from_payloads(
        [
            chunk("pyproject.toml", '[project]\nname = "acme"\n\n[project.scripts]\nacme = "acme.cli:main"\n'),
            chunk("web/package.json", '{"name": "@acme/web", "bin": {"acme-web": "bin/run.js"}}\n'),
            chunk(
                "tools/gen.py",
                'parser = argparse.ArgumentParser(prog="acme-gen")\nparser.add_argument("--out")\n',
            ),
            chunk("cmd/acmectl/main.go", "package main\n\nfunc main() {}\n"),
            chunk(
                "src/acme/cli.py",
                'def index(force: bool) -> None: ...\nprint("report")\n',
                symbol="index",
                symbol_type="function",
                signature="def index(force: bool) -> None:",
            ),
        ]
    )
    assert set(facts.programs) == {"acme", "acme-web", "acme-gen", "acmectl"}
    text = "```bash\nacme index --force\nacme-gen --out x\nacmectl\nreport --all\n```\n"
    findings = check_claims(extract_claims("README.md", text), facts, doc_dates={})
    assert [(f.ref, f.status) for f in findings] == [
        ("--force", "verified"),
        ("acme index", "verified"),
        ("--out", "verified"),
        ("acme-gen", "verified"),
        ("acmectl", "verified"),
        ("--all", "unverifiable"),
        ("report", "unverifiable"),  # named in code, but not a program the code declares
    ]
    assert findings[1].evidence.startswith("program acme declared in pyproject.toml:5")


def test_dotted_module_names_that_look_like_files_and_sample_folders(chunk: MakeChunk) -> None:
    facts = CodeFacts.from_payloads(
        [
            chunk("src/msgspec/json.py", "def encode(obj): ...\n"),
            chunk("docs/examples/flask/app.py", "import flask\n"),
        ]
    )
    findings = check_claims(
        extract_claims("docs/usage.md", "Use `msgspec.json` and `flask.appcontext_pushed`.\n"),
        facts,
        doc_dates={},
    )
    assert [(f.ref, f.status) for f in findings] == [
        ("flask.appcontext_pushed", "unverifiable"),  # docs/examples/flask is sample code, not a package
        ("msgspec.json", "verified"),
    ]
    assert findings[1].evidence == "module msgspec.json is src/msgspec/json.py"


def test_rst_history_notes_builtins_and_file_roles_follow_reader_rules() -> None:
    text = (
        "Settings\n========\n\n"
        ".. versionchanged:: 2.3\n"
        "   ``JSON_AS_ASCII`` was removed; use :func:`old_helper`.\n\n"
        "Catch :exc:`ConnectionError` or ``KeyError``; edit :file:`activate` and :file:`src/app/cli.py`.\n"
        "Works with async/await and and/or ``'static/app.css'``.\n"
    )
    assert targets(text, doc="docs/config.rst") == [
        ("path", "src/app/cli.py", True),
        ("path", "static/app.css", True),
    ]


def test_a_flag_after_a_command_belongs_to_that_command() -> None:
    text = (
        "`--verbose` works anywhere.\n"
        "```bash\nuwsgi --http 127.0.0.1:5000\n```\nPass `--master` to supervise.\n"
        "```bash\nacme index\n```\nThen `--json` prints JSON.\n"
    )
    claims = [(c.target, c.command) for c in extract_claims("docs/deploy.md", text) if c.kind == "flag"]
    assert claims == [("--verbose", None), ("--http", "uwsgi"), ("--master", "uwsgi"), ("--json", "acme")]


def test_subcommands_derived_from_function_names_and_sample_commands(chunk: MakeChunk) -> None:
    facts = CodeFacts.from_payloads(
        [
            chunk("pyproject.toml", '[project.scripts]\nacme = "acme.cli:app"\n'),
            chunk("src/acme/cli.py", "@app.command()\ndef create_user(name: str) -> None: ...\n"),
        ]
    )
    text = (
        '```python\n@app.cli.command("seed-db")\ndef seed(): ...\n```\n'
        "```bash\nacme create-user ada\nacme seed-db\nacme drop-all\n```\n"
    )
    findings = check_claims(extract_claims("docs/cli.md", text), facts, doc_dates={})
    assert [(f.ref, f.status) for f in findings] == [
        ("acme create-user", "verified"),
        ("acme seed-db", "unverifiable"),  # the doc's own sample defines it
        ("acme drop-all", "contradicted"),
    ]


def test_sphinx_absolute_doc_names_resolve_under_the_docs_folder(chunk: MakeChunk) -> None:
    facts = CodeFacts.from_payloads([chunk("docs/patterns/appfactories.rst", "x"), chunk("src/a.py", "x")])
    findings = check_claims(
        extract_claims("docs/appcontext.rst", "See :doc:`/patterns/appfactories` and :doc:`/gone`.\n"),
        facts,
        doc_dates={},
    )
    assert [(f.ref, f.status, f.evidence) for f in findings] == [
        ("/gone", "contradicted", "no file or folder /gone in the indexed files"),
        ("/patterns/appfactories", "verified", "found as docs/patterns/appfactories.rst"),
    ]
