"""A credential a doc writes out never leaves the check: not in the report, the JSON, the event or the prompt."""

from __future__ import annotations

from typer.testing import CliRunner

from sextant.cli.main import app
from sextant.doc_claims import ClaimFinding, check_repository, doc_claims, render_findings_markdown
from sextant.doc_claims.report.secrets import redact_secrets
from sextant.doc_claims.report.summary import build_report

from ..conftest import GitRepo

CLI = 'import click\n\n\n@click.command()\n@click.option("--token")\ndef main(token):\n    pass\n'
PYPROJECT = '[project]\nname = "acme"\n\n[project.scripts]\nacme = "acme.cli:main"\n'
DOC = """# Use

```console
$ acme --token ghp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA --secret-key sk-live-abcdefghijklmnop
$ curl -H "Authorization: Bearer xoxb-1234-5678-abcdefSECRETVALUE" https://ops:hunter2pass@example.com/api
```

Set `ACME_PASSWORD=hunter2secret` before `acme` starts; keep `ACME_TOKEN=$ACME_TOKEN` as a placeholder.
"""
SECRETS = ("ghp_AAAA", "sk-live-abc", "xoxb-1234", "hunter2pass", "hunter2secret")


def test_a_doc_with_credentials_is_reported_without_them(git_repo: GitRepo) -> None:
    git_repo.write("acme/__init__.py", "")
    git_repo.write("acme/cli.py", CLI)
    git_repo.write("pyproject.toml", PYPROJECT)
    git_repo.write("docs/use.md", DOC)
    git_repo.commit("first")
    runner = CliRunner()

    outputs = {
        "markdown": runner.invoke(app, ["docs-check", str(git_repo.root)]).output,
        "json": runner.invoke(app, ["docs-check", str(git_repo.root), "--json"]).output,
    }
    report = check_repository(git_repo.root)
    outputs["event"] = repr(doc_claims(report.findings))
    outputs["prompt block"] = render_findings_markdown(report)

    assert any(f.ref.startswith("ACME_PASSWORD") for f in report.findings)  # the claim itself is judged
    for where, text in outputs.items():
        assert not [secret for secret in SECRETS if secret in text], where
    assert "ACME_PASSWORD=<redacted:password>" in outputs["json"]
    assert "ACME_TOKEN=$ACME_TOKEN" in outputs["json"]  # a placeholder is what the reader should see


def test_alarm_lines_mask_a_url_password_and_keep_the_rest() -> None:
    finding = ClaimFinding(
        doc="docs/deploy.md",
        line=7,
        ref="https://deploy:s3cretpass@git.example.com/acme/tools.git",
        kind="path",
        status="contradicted",
        evidence="no such path",
    )
    report = build_report([finding], {"docs/deploy.md": None}, skipped_docs=[])
    text = render_findings_markdown(report)
    assert "s3cretpass" not in text
    assert (
        "`https://deploy:<redacted:password>@git.example.com/acme/tools.git` (path) — contradicted: no such path"
        in text
    )


def test_placeholders_and_code_names_are_kept() -> None:
    for kept in ("API_TOKEN=$API_TOKEN", "GITHUB_TOKEN=<your-token>", "SECRET_KEY", "--api-key", "token_url"):
        assert redact_secrets(kept) == kept
    assert redact_secrets("password: s3cr3t") == "password: <redacted:password>"
    assert redact_secrets("AKIAABCDEFGHIJKLMNOP") == "<redacted:aws-key>"
