"""One real-shaped doc per false-alarm category, each with the finding it must raise and the traps it
must not: a small repository with history, judged by check_repository as `sextant docs-check` does.

The categories and their rules are described in docs/doc-claims.md.
"""

from __future__ import annotations

import pytest

from sextant.doc_claims import ClaimFinding, DocCheckReport, check_repository

from ..conftest import GitRepo

PYPROJECT = '[project]\nname = "acme"\ndependencies = ["requests>=2"]\n\n[project.scripts]\nacme = "acme.cli:main"\n'
CLI = (
    "import argparse\n\n\ndef main() -> None:\n"
    '    parser = argparse.ArgumentParser(prog="acme")\n'
    '    parser.add_argument("--port")\n'
    "    parser.parse_args()\n"
)
POOL_BEFORE = "def connect(host, retries=3):\n    return host\n\n\ndef ping():\n    return 1\n"
POOL_AFTER = (
    "def connect(host):\n    return host\n\n\ndef ping():\n    return 2  # a body change: the doc still holds\n"
)
SESSION_OLD = "class SyncSession:\n    def refresh(self):\n        pass\n"
SESSION_NEW = "class Session:\n    def refresh(self):\n        pass\n"

DOCS = {
    # 1. outdated only when the definition itself changed after the doc
    "docs/pool.md": "Call `connect(host, retries)`; pass `retries` to retry.\n\nCall `ping()` to check.\n",
    # 2. names local to the doc's own example
    "docs/tutorial.md": (
        "```python\nclass BlogPost(Model):\n    title = Field()\n```\n\n"
        "Then `BlogPost.title` holds it, logs go to `{name}-{id}.log`, the server is `localhost:8000`, "
        "and the view is `<model>_list`.\n\nThe old `acme.session.SyncSession` is what we ship.\n"
    ),
    # 3. history sentences (per sentence), but not a pending deprecation of something already gone
    "docs/sessions.md": "`SyncSession` was removed in 2.0.\n\n`SyncSession` is pending deprecation.\n",
    # 4. files the reader creates or a tool generates
    "docs/setup.md": "Edit your `mysite/settings.py`, then run `go run main.go`.\n\nUpdate `acme/gone.yaml`.\n",
    # 5. other packages' names
    "docs/http.md": (
        "Requests' `Session.mount()` adapts transports; `PolygonField` is provided by acme-geo.\n\n"
        "```python\nfrom otherpkg import Widget\n```\n\n"
        "Our `Session.close()` is gone.\n"
    ),
    # 6. flags and subcommands of other programs
    "docs/cli.md": "```sh\ndocker run --rm -it image\nacme --port 8000\nacme --gone-flag\n```\n",
    # 7. paths against the whole git tree
    "docs/layout.md": "Deploy with `scripts/deploy`; images live in `assets/`; see `scripts/missing.sh`.\n",
}
NON_PROSE = {
    "testdata/expected.md": "Run `acme --nonexistent` and read `no_such_function()`.\n",
    "docs/notes.rst": (
        ".. todo: describe `unwritten_function()`\n\n"
        ".. todo:: also `another_missing()`\n\n"
        "Call :func:`acme.pool.ping`.\n"
    ),
}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> DocCheckReport:
    repo = GitRepo(tmp_path_factory.mktemp("categories") / "repo")
    repo.write("pyproject.toml", PYPROJECT)
    repo.write("acme/__init__.py", "")
    repo.write("acme/cli.py", CLI)
    repo.write("acme/pool.py", POOL_BEFORE)
    repo.write("acme/session.py", SESSION_OLD)
    repo.write("acme/config.yaml", "port: 1\n")
    repo.write("scripts/deploy", "#!/bin/sh\necho deploy\n")
    repo.write("assets/logo.png", b"\x89PNG\r\n")
    for path, text in {**DOCS, **NON_PROSE}.items():
        repo.write(path, text)
    repo.commit("Docs and code", date="2024-01-02T10:00:00+00:00")
    for day in range(3, 12):
        repo.write("acme/version.py", f"VERSION = {day}\n")
        repo.commit(f"Bump {day}", date=f"2024-02-{day:02d}T10:00:00+00:00")
    repo.write("acme/pool.py", POOL_AFTER)
    repo.commit("Drop connect retries", date="2024-12-04T09:00:00+00:00")
    repo.write("acme/session.py", SESSION_NEW)
    repo.commit("Rename SyncSession to Session", date="2025-01-05T09:00:00+00:00")
    for day in range(12, 22):
        repo.write("acme/version.py", f"VERSION = {day}\n")
        repo.commit(f"Bump {day}", date=f"2025-02-{day:02d}T10:00:00+00:00")
    return check_repository(repo.root)


def _on(report: DocCheckReport, doc: str) -> dict[str, ClaimFinding]:
    return {f.ref: f for f in report.findings if f.doc == doc}


def _alarms(report: DocCheckReport, doc: str) -> dict[str, str]:
    return {ref: f.status for ref, f in _on(report, doc).items() if f.status in {"contradicted", "outdated"}}


def test_1_outdated_only_when_the_definition_changed(report: DocCheckReport) -> None:
    found = _on(report, "docs/pool.md")
    assert found["connect(host, retries)"].status == "outdated"
    assert found["connect(host, retries)"].changed is not None
    assert found["connect(host, retries)"].changed.startswith("connect lost parameter retries on 2024-12-04, commit ")
    assert found["ping()"].status == "verified"  # its file changed later; the definition lost nothing


def test_2_names_of_the_docs_own_example_are_not_claims(report: DocCheckReport) -> None:
    assert _alarms(report, "docs/tutorial.md") == {"acme.session.SyncSession": "contradicted"}


def test_3_history_sentences_are_not_alarms_but_a_pending_deprecation_is(report: DocCheckReport) -> None:
    sessions = [f for f in report.findings if f.doc == "docs/sessions.md" and f.ref == "SyncSession"]
    assert {(f.line, f.status) for f in sessions} == {(1, "unverifiable"), (3, "contradicted")}
    assert next(f for f in sessions if f.line == 3).replacement == "Session"


def test_4_files_the_reader_creates_are_skipped(report: DocCheckReport) -> None:
    assert _alarms(report, "docs/setup.md") == {"acme/gone.yaml": "contradicted"}  # acme/ exists


def test_5_other_packages_names_are_told_apart(report: DocCheckReport) -> None:
    assert _alarms(report, "docs/http.md") == {"Session.close()": "contradicted"}


def test_6_flags_are_checked_only_for_the_repositorys_own_programs(report: DocCheckReport) -> None:
    found = _on(report, "docs/cli.md")
    assert found["--port"].status == "verified"
    assert found["--gone-flag"].status == "contradicted"
    assert "--rm" not in found or found["--rm"].status == "unverifiable"  # docker's, never ours


def test_7_paths_are_checked_against_the_whole_git_tree(report: DocCheckReport) -> None:
    found = _on(report, "docs/layout.md")
    assert found["scripts/deploy"].status == "verified"  # an extension-less executable
    assert found["assets/"].status == "verified"  # a folder holding only images
    assert found["scripts/missing.sh"].status == "contradicted"


def test_8_non_prose_is_not_read_as_docs(report: DocCheckReport) -> None:
    assert not [f for f in report.findings if f.doc == "testdata/expected.md"]
    notes = _on(report, "docs/notes.rst")
    assert set(notes) == {"acme.pool.ping"}
    assert notes["acme.pool.ping"].status == "verified"
