"""Claims judged against the code facts: verified, contradicted, outdated, unverifiable, with evidence."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest

from sextant.chunkstore.payload import ChunkPayload
from sextant.doc_claims import ClaimFinding, CodeFacts, check_claims, extract_claims

MakeChunk = Callable[..., ChunkPayload]


@pytest.fixture
def facts(code_chunks: list[ChunkPayload]) -> CodeFacts:
    return CodeFacts.from_payloads(code_chunks)


def judge(
    facts: CodeFacts,
    text: str,
    doc: str = "docs/guide/index.md",
    dates: Mapping[str, str | None] | None = None,
) -> dict[str, ClaimFinding]:
    claims = extract_claims(doc, text)
    return {f.ref: f for f in check_claims(claims, facts, doc_dates=dates or {})}


def statuses(findings: dict[str, ClaimFinding]) -> dict[str, str]:
    return {ref: f.status for ref, f in findings.items()}


def test_paths_resolve_from_the_doc_folder_then_the_root(facts: CodeFacts) -> None:
    found = judge(
        facts,
        "See [setup](setup.md), [again](../guide/setup.md), [root](/README.md), `src/app/auth.py`,\n"
        "`src/app/`, `app/auth.py`, `src/app/missing.py`, `img/arch.png`, `settings.json`, [gone](old.md).\n",
    )
    assert statuses(found) == {
        "setup.md": "verified",
        "../guide/setup.md": "verified",
        "/README.md": "verified",
        "src/app/auth.py": "verified",
        "src/app/": "verified",
        "app/auth.py": "verified",
        "src/app/missing.py": "contradicted",
        "img/arch.png": "unverifiable",
        "settings.json": "unverifiable",
        "old.md": "contradicted",
    }
    assert found["setup.md"].evidence == "file docs/guide/setup.md exists (relative to the doc's folder)"
    assert found["src/app/auth.py"].evidence == "file src/app/auth.py exists"
    assert found["src/app/"].evidence.startswith("folder src/app/ exists")
    assert found["app/auth.py"].evidence == "found as src/app/auth.py"
    assert found["src/app/missing.py"].evidence == "no file or folder src/app/missing.py in the indexed files"


def test_doc_folder_wins_over_the_root(chunk: MakeChunk, code_chunks: list[ChunkPayload]) -> None:
    facts = CodeFacts.from_payloads([*code_chunks, chunk("docs/guide/README.md", "# local")])
    found = judge(facts, "[local](README.md)\n")
    assert found["README.md"].evidence == "file docs/guide/README.md exists (relative to the doc's folder)"
    from_root = judge(facts, "[root](README.md)\n", doc="CONTRIBUTING.md")
    assert from_root["README.md"].evidence == "file README.md exists"


def test_symbols_are_found_anywhere(facts: CodeFacts) -> None:
    found = judge(
        facts,
        "`login()` returns a `Session`-less token; :meth:`Session.refresh` extends it.\n"
        "`app.auth.login` and module `app.auth`, `Session.refresh()`, the `refresh` method.\n",
        doc="docs/a.rst",
    )
    assert found["login()"].evidence == "defined in src/app/auth.py:14 (function login)"
    assert found["Session.refresh"].evidence == "defined in src/app/auth.py:10 (method Session.refresh)"
    assert {found[r].status for r in ("app.auth.login", "app.auth", "Session.refresh()", "refresh")} == {"verified"}
    assert found["app.auth"].evidence == "module app.auth is src/app/auth.py"


def test_absent_symbols_contradict_unless_generic_or_foreign(facts: CodeFacts) -> None:
    found = judge(facts, "`authenticate_user()`, `np.array`, `JetStream`, `refresh_all_tokens`.\n")
    assert statuses(found) == {
        "authenticate_user()": "contradicted",
        "np.array": "unverifiable",
        "JetStream": "unverifiable",
        "refresh_all_tokens": "contradicted",
    }
    assert found["authenticate_user()"].evidence == "no file or symbol named authenticate_user in the indexed code"
    assert "np is not a package or symbol" in found["np.array"].evidence


def test_env_vars_are_verified_by_presence_in_code_text(facts: CodeFacts) -> None:
    found = judge(facts, "Set `NATS_URL`, `QDRANT_URL` and `AWS_REGION`.\n")
    assert statuses(found) == {
        "NATS_URL": "verified",
        "QDRANT_URL": "contradicted",
        "AWS_REGION": "unverifiable",
    }
    assert found["NATS_URL"].evidence == "appears in src/app/auth.py:4"


def test_commands_and_flags(facts: CodeFacts) -> None:
    found = judge(
        facts,
        "```bash\n"
        "acme index --force --dry-run --window-size 3 --nope\n"
        "acme deploy\n"
        "flux get kustomizations --watch\n"
        "```\n",
    )
    assert statuses(found) == {
        "acme index": "verified",
        "--force": "verified",
        "--dry-run": "verified",
        "--window-size": "unverifiable",  # no option declares it; the code has window_size (a parameter of main)
        "--nope": "contradicted",
        "acme deploy": "contradicted",
        "flux get": "unverifiable",
        "--watch": "unverifiable",
    }
    assert found["acme index"].evidence == (
        "program acme declared in pyproject.toml:2; subcommand index in src/app/cli.py:7"
    )
    assert found["acme deploy"].evidence.endswith("but no subcommand deploy appears in the indexed code")


def test_a_word_the_shell_is_asked_to_complete_is_no_subcommand(facts: CodeFacts) -> None:
    # click's examples/completion/README: "$ completion gr <TAB> <TAB>" shows `group` being completed
    found = judge(facts, "```console\n$ acme de <TAB> <TAB>\n$ acme deploy\n```\n")
    assert statuses(found) == {"acme": "verified", "acme deploy": "contradicted"}


def test_config_keys(facts: CodeFacts) -> None:
    found = judge(facts, "Tune `tool.acme.max-retries` and the `retry_limit` setting.\n")
    assert statuses(found) == {"tool.acme.max-retries": "verified", "retry_limit": "contradicted"}


def test_file_dates_alone_never_make_a_claim_outdated(facts: CodeFacts) -> None:
    text = "`login()` lives in `src/app/auth.py`; `authenticate_user()` is gone.\n"
    old = judge(facts, text, doc="docs/design.md", dates={"docs/design.md": "2024-01-02T10:00:00Z"})
    assert statuses(old) == {
        "login()": "verified",  # its file changed 20 months later, but nothing says the definition did
        "src/app/auth.py": "verified",
        "authenticate_user()": "contradicted",
    }


def test_changelog_claims_produce_no_findings(facts: CodeFacts) -> None:
    claims = extract_claims("CHANGELOG.md", "- Removed `authenticate_user()`.\n")
    assert claims  # extraction still sees them (the reviewer's drift check may want them)
    assert check_claims(claims, facts, doc_dates={}) == []


def test_findings_are_sorted_deterministically(facts: CodeFacts) -> None:
    claims = extract_claims("b.md", "`zeta_fn()` `alpha_fn()`\n`login()`\n") + extract_claims("a.md", "`QDRANT_URL`\n")
    findings = check_claims(list(reversed(claims)), facts, doc_dates={})
    assert [(f.doc, f.line, f.ref) for f in findings] == [
        ("a.md", 1, "QDRANT_URL"),
        ("b.md", 1, "alpha_fn()"),
        ("b.md", 1, "zeta_fn()"),
        ("b.md", 2, "login()"),
    ]
