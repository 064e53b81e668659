"""Absent paths the index could never hold are unverifiable; absent paths it could hold still contradict.

Cases learned from Sextant's own README: run-time folders (`.tools/`, `.sextant/runtime.json`), an
extension-less script (`.ci/run`) and example file arguments of a CLI flag (`--changed src/app.py`).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_claims import ClaimFinding, CodeFacts, check_claims, extract_claims
from sextant.doc_claims.judging.index_coverage import has_no_extension, index_can_hold, unindexed_hidden_folder

MakeChunk = Callable[..., ChunkPayload]


@pytest.fixture
def facts(chunk: MakeChunk, code_chunks: list[ChunkPayload]) -> CodeFacts:
    return CodeFacts.from_payloads(
        [
            *code_chunks,
            chunk(".github/workflows/release.yml", "on: push\n"),
            chunk("bench/review/run.py", "print('bench')\n"),
            chunk("Makefile", "run:\n\tuv run sextant analyze .\n"),
        ]
    )


def judge(facts: CodeFacts, text: str, doc: str = "README.md") -> dict[str, ClaimFinding]:
    findings = check_claims(extract_claims(doc, text), facts, doc_dates={})
    return {f.ref: f for f in findings if f.kind == "path"}


def statuses(findings: dict[str, ClaimFinding]) -> dict[str, str]:
    return {ref: f.status for ref, f in findings.items()}


def test_index_can_hold_follows_the_indexers_languages_and_doc_extensions() -> None:
    held = ["src/app.py", "Makefile", "docker/Dockerfile", "notes.txt", "a/b.yml", ".github/ci.yaml"]
    not_held = [".ci/run", "LICENSE", ".env.example", "logo.png", ".gitignore", "scripts/deploy"]
    assert [index_can_hold(p) for p in held] == [True] * len(held)
    assert [index_can_hold(p) for p in not_held] == [False] * len(not_held)
    assert [has_no_extension(p) for p in (".ci/run", ".gitignore", "src/app/", "a.py", ".env.example")] == [
        True,
        True,
        True,
        False,
        False,
    ]


def test_unindexed_hidden_folder_names_the_first_hidden_folder_the_index_lacks() -> None:
    directories = {".github", ".github/workflows", "bench", "src"}
    assert unindexed_hidden_folder(".sextant/nats/", directories) == ".sextant"
    assert unindexed_hidden_folder(".tools/", directories) == ".tools"
    assert unindexed_hidden_folder("bench/.work/out.json", directories) == "bench/.work"
    assert unindexed_hidden_folder(".github/.cache/x.yml", directories) == ".github/.cache"
    assert unindexed_hidden_folder(".github/workflows/ci.yml", directories) is None  # the index holds .github
    assert unindexed_hidden_folder("src/app.py", directories) is None
    assert unindexed_hidden_folder(".env.example", directories) is None  # a dotfile, not a hidden folder


def test_run_time_state_under_unindexed_hidden_folders_is_unverifiable(facts: CodeFacts) -> None:
    found = judge(
        facts,
        "`make run` installs uv into `.tools/`, keeps data in `.sextant/nats/` and records its address\n"
        "in `.sextant/runtime.json`; see [the state](.sextant/state.md) and `bench/.work/out.json`.\n",
    )
    assert statuses(found) == dict.fromkeys(
        [".tools/", ".sextant/nats/", ".sextant/runtime.json", ".sextant/state.md", "bench/.work/out.json"],
        "unverifiable",
    )
    assert found[".sextant/runtime.json"].evidence == (
        "the index holds nothing under .sextant/: hidden folders keep tool state, caches and generated files, "
        "usually gitignored and never indexed"
    )


def test_a_missing_file_in_an_indexed_hidden_folder_is_still_contradicted(facts: CodeFacts, chunk: MakeChunk) -> None:
    found = judge(facts, "The [CI workflow](.github/workflows/ci.yml) and [release](.github/workflows/release.yml).\n")
    assert statuses(found) == {".github/workflows/ci.yml": "contradicted", ".github/workflows/release.yml": "verified"}
    alone = CodeFacts.from_payloads([chunk("src/app.py", "x = 1\n")])  # an index without .github
    assert statuses(judge(alone, "The [CI workflow](.github/workflows/ci.yml).\n")) == {
        ".github/workflows/ci.yml": "unverifiable"
    }


def test_extension_less_names_are_unverifiable_unless_the_doc_is_firm(facts: CodeFacts) -> None:
    found = judge(
        facts,
        "`.ci/run` is `make test`; `scripts/deploy` ships it. Also `src/gone/`, `Makefile`, `Justfile`,\n"
        "`LICENSE` and `.env.example`. Read [the guide](docs/gone) and [usage](docs/guide/setup).\n",
    )
    assert statuses(found) == {
        ".ci/run": "unverifiable",
        "scripts/deploy": "unverifiable",
        "src/gone/": "contradicted",  # a trailing slash says folder: the index sees folders of indexed files
        "Makefile": "verified",
        "Justfile": "unverifiable",  # a file everyone knows, of a kind the index does not hold
        "LICENSE": "unverifiable",
        ".env.example": "unverifiable",
        "docs/gone": "contradicted",  # a link to an extension-less name is a doc page, which the index holds
        "docs/guide/setup": "verified",
    }
    assert found[".ci/run"].evidence == (
        ".ci/run has no file extension: the index holds no such file (only known languages and docs are indexed) "
        "and sees a folder only through its indexed files"
    )
    assert found[".env.example"].evidence == (
        ".env.example is a kind of file the index does not hold (only known languages and docs are indexed)"
    )


def test_a_missing_bare_file_name_in_prose_may_be_the_readers_own(chunk: MakeChunk) -> None:
    facts = CodeFacts.from_payloads([chunk("src/app.py", "x = 1\n")])
    assert statuses(judge(facts, "Run the targets in `Makefile`.\n")) == {"Makefile": "unverifiable"}
    assert statuses(judge(facts, "Run the targets in [the Makefile](Makefile).\n")) == {"Makefile": "contradicted"}


def test_a_program_path_is_firm_only_when_the_index_could_hold_it(facts: CodeFacts) -> None:
    found = judge(facts, "```sh\n./scripts/deploy --prod\n./scripts/release.sh\n./bin/tool.py\n```\n")
    assert statuses(found) == {
        "./scripts/deploy": "unverifiable",
        "./scripts/release.sh": "unverifiable",  # no scripts/ folder: a script the reader writes
        "./bin/tool.py": "unverifiable",
    }


def test_file_arguments_of_the_repositorys_own_cli_are_example_values(facts: CodeFacts) -> None:
    text = (
        "```sh\n"
        "sextant publish repo-updated https://github.com/acme/widgets.git --provider github --branch main \\\n"
        "  --changed src/app.py --removed src/old.py\n"
        "acme index src/app/gone.py\n"
        "```\n"
    )
    claims = {c.target: c.explicit for c in extract_claims("README.md", text) if c.kind == "path"}
    assert claims == {"src/app.py": False, "src/old.py": False, "src/app/gone.py": False}
    found = judge(facts, text)
    assert statuses(found) == dict.fromkeys(["src/app.py", "src/old.py", "src/app/gone.py"], "unverifiable")


def test_a_script_given_to_an_interpreter_or_a_file_tool_stays_firm(facts: CodeFacts) -> None:
    text = (
        "```sh\n"
        "uv run --no-sync python bench/review/run.py /path/to/repo\n"
        "uv run python scripts/gone.py\n"
        "python bench/recency/run.py /path/to/a/big/repo.git\n"
        "cat docs/gone.md\n"
        "pytest tests/test_gone.py\n"
        "```\n"
    )
    claims = {c.target: c.explicit for c in extract_claims("README.md", text) if c.kind == "path"}
    assert claims == {
        "bench/review/run.py": True,
        "scripts/gone.py": True,
        "bench/recency/run.py": True,
        "docs/gone.md": True,
        "tests/test_gone.py": True,
    }
    assert statuses(judge(facts, text)) == {
        "bench/review/run.py": "verified",
        "scripts/gone.py": "unverifiable",  # neither the file nor scripts/ exists: the reader's own
        "bench/recency/run.py": "unverifiable",  # bench/recency/ is not in the repository either
        "docs/gone.md": "contradicted",
        "tests/test_gone.py": "unverifiable",
    }


def test_prose_paths_and_relative_links_that_are_missing_still_contradict(facts: CodeFacts) -> None:
    found = judge(facts, "See `src/app/missing.py`, [setup](docs/gone.md) and [old](../old.md).\n", doc="docs/a.md")
    assert statuses(found) == {
        "src/app/missing.py": "contradicted",
        "docs/gone.md": "contradicted",
        "../old.md": "contradicted",
    }
