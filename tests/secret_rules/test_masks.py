"""The shared masks: every kind of credential goes, references, placeholders and ordinary code stay."""

from __future__ import annotations

import msgspec
import pytest

from sextant.contracts import RepoRef, ReviewRequested, decode_event, encode_event
from sextant.secret_rules import (
    redact_change,
    redact_config_secrets,
    redact_credentials,
    redact_diff,
    redact_doc_secrets,
    redact_file_text,
    redact_source_secrets,
)

MASKED = [
    ('key = "AKIAQ3EGRT7XK2LMWP4N"', 'key = "<redacted:aws-key>"'),
    ("GH=ghp_R7nqW2xKp9LmT4vZ8cY1bH6dJ3sF0gA5eQuN", "GH=<redacted:github-token>"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS", "<redacted:github-token>"),
    ("slack xoxb-2048917364-5501928374615-Zq8RtLp3", "slack <redacted:slack-token>"),
    ("Authorization: Bearer 9f8e7d6c5b4a3210fedcba98765432Aa", "Authorization: Bearer <redacted:token>"),
    ("postgres://app:S3cretPassw0rd@db:5432/x", "postgres://app:<redacted:password>@db:5432/x"),
    ("SECRET_KEY=5ebe2294ecd0e0f08eab7690d2a6ee69", "SECRET_KEY=<redacted:secret>"),
    ("aws_secret_access_key: wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key: <redacted:secret>"),
]
KEPT = [
    'token = os.environ["TOKEN"]',
    'password = getenv("DB_PASSWORD")',
    "API_TOKEN=${API_TOKEN}",
    "withCredentials: defaultToConfig2,",
    "cancelToken: defaultToConfig2,",
    'headers["Authorization"] = f"Bearer {self.token}"',
    "amqp://guest:guest@localhost:5672//",
    "Basic YWRtaW46cGFzc3dvcmQ=",  # admin:password, a stand-in
    "token_url = https://example.com/oauth/token",
    "SECRET_KEY = settings.SECRET_KEY_FALLBACK_2024",
]


@pytest.mark.parametrize(("text", "expected"), MASKED)
def test_credentials_are_masked_wherever_they_stand(text: str, expected: str) -> None:
    assert redact_credentials(text) == expected
    assert redact_credentials(expected) == expected  # masking twice changes nothing


@pytest.mark.parametrize("text", KEPT)
def test_references_placeholders_and_names_stay(text: str) -> None:
    assert redact_source_secrets(text) == text


def test_a_private_key_block_keeps_its_markers_and_lines() -> None:
    block = (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE\n-----END OPENSSH PRIVATE KEY-----"
    )
    masked = redact_credentials(block)
    assert masked.splitlines() == [
        "-----BEGIN OPENSSH PRIVATE KEY-----",
        "<redacted:private-key>",
        "-----END OPENSSH PRIVATE KEY-----",
    ]
    tail = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAE\n-----END RSA PRIVATE KEY-----"  # a chunk cut inside the block
    assert "b3Blbn" not in redact_credentials(tail)


def test_code_masks_quoted_literals_only() -> None:
    code = (
        'db_password = "Tr0ub4dor-3x!"\n'
        "password = read_password()\n"
        'SMTP_PASSWORD = "<your-smtp-password>"\n'
        'token_type = "bearer"\n'
        'api_key: str = "k9Xq2LmW7vRt"\n'
        'TOKEN_VARIABLE = "GITHUB_TOKEN"\n'
        'private_key = "/etc/ssl/private.pem"\n'
        's3_secret_access_key = "s3-secret-access-key"\n'
        "if token == '#bygroup':\n"  # a comparison: a lexer's token kind, not an assignment
        '"pbkdf2-password": "1.2.1",\n'
        'upgrade_token = "engine1_upgrades"\n'
    )
    assert redact_source_secrets(code).splitlines() == [
        'db_password = "<redacted:password>"',
        "password = read_password()",
        'SMTP_PASSWORD = "<your-smtp-password>"',
        'token_type = "bearer"',
        'api_key: str = "<redacted:key>"',
        'TOKEN_VARIABLE = "GITHUB_TOKEN"',
        'private_key = "/etc/ssl/private.pem"',
        's3_secret_access_key = "s3-secret-access-key"',
        "if token == '#bygroup':",
        '"pbkdf2-password": "1.2.1",',
        'upgrade_token = "engine1_upgrades"',
    ]


def test_config_files_mask_unquoted_values_too() -> None:
    env = "DATABASE_PASSWORD=k8Lq2Vz9Wm\nDATABASE_HOST=db.internal\nCACHE_PASSWORD=${CACHE_PASSWORD}\nDEBUG=true\n"
    assert redact_config_secrets(env) == (
        "DATABASE_PASSWORD=<redacted:password>\nDATABASE_HOST=db.internal\nCACHE_PASSWORD=${CACHE_PASSWORD}\nDEBUG=true\n"
    )
    assert redact_file_text(".env.production", env) == redact_config_secrets(env)
    assert redact_file_text("app/settings.py", env) == env  # in code an unquoted value is a reference
    yaml = "db:\n  password: hunter2yaml\n  token: !vault abc\n  secret: ${SECRET}\n"
    script = '      access_token=os.getenv("TWITTER_ACCESS_TOKEN"),\n'  # a script inside a workflow
    assert redact_file_text(".github/workflows/ci.yml", script) == script
    assert redact_file_text("deploy/values.yaml", yaml) == (
        "db:\n  password: <redacted:password>\n  token: !vault abc\n  secret: ${SECRET}\n"
    )


def test_docs_mask_inline_settings() -> None:
    kept = "password: Annotated[str, Field()]; opt.password = '[SECRET]'"
    assert redact_doc_secrets(kept) == kept
    text = "Set `ACME_PASSWORD=hunter2secret` first; keep `ACME_TOKEN=$ACME_TOKEN`. The password: required."
    assert redact_doc_secrets(text) == (
        "Set `ACME_PASSWORD=<redacted:password>` first; keep `ACME_TOKEN=$ACME_TOKEN`. The password: required."
    )
    assert redact_file_text("docs/setup.md", text) == redact_doc_secrets(text)


def test_a_diff_is_masked_file_by_file_by_kind() -> None:
    diff = (
        "diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-DB_PASSWORD=old9Pass\n+DB_PASSWORD=new9Pass\n"
        "diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n"
        "-password = old_password\n+password = 'n3wPassw0rd'\n"
    )
    assert redact_diff(diff).splitlines()[4:6] == [
        "-DB_PASSWORD=<redacted:password>",
        "+DB_PASSWORD=<redacted:password>",
    ]
    assert redact_diff(diff).splitlines()[-2:] == ["-password = old_password", "+password = '<redacted:password>'"]
    assert len(redact_diff(diff).splitlines()) == len(diff.splitlines())


def test_a_review_request_is_masked_when_built_and_when_decoded() -> None:
    repo = RepoRef.for_url("https://example.com/org/repo.git")
    token = "ghp_R7nqW2xKp9LmT4vZ8cY1bH6dJ3sF0gA5eQuN"
    fields = {"event_id": "e", "run_id": "r", "occurred_at": "2026-12-03T00:00:00Z", "repo": repo}
    built = ReviewRequested(**fields, title=f"rotate {token}", description=f"was {token}", diff=f"+TOKEN = '{token}'\n")
    assert token not in encode_event(built).decode()
    assert built.title == "rotate <redacted:github-token>"
    raw = msgspec.json.encode(
        {**msgspec.to_builtins(built), "title": token, "diff": f"+GITHUB_TOKEN = '{token}'\n"}
    )  # what a publisher that does not mask sends
    decoded = decode_event(raw)
    assert isinstance(decoded, ReviewRequested)
    assert token not in decoded.title
    assert decoded.diff == "+GITHUB_TOKEN = '<redacted:github-token>'\n"
    assert decode_event(encode_event(decoded)) == decoded


def test_a_change_is_masked_as_prose_and_as_a_diff() -> None:
    token = "ghp_R7nqW2xKp9LmT4vZ8cY1bH6dJ3sF0gA5eQuN"
    diff = "--- a/.env\n+++ b/.env\n@@ -1 +1 @@\n-DB_PASSWORD=hunter2hunter2\n+DB_PASSWORD=${DB_PASSWORD}\n"
    title, description, masked = redact_change(f"rotate {token}", "run `export API_TOKEN=k8Lq2Vz9Wm` first", diff)
    assert title == "rotate <redacted:github-token>"
    assert description == "run `export API_TOKEN=<redacted:token>` first"  # an inline literal in prose
    assert "-DB_PASSWORD=<redacted:password>" in masked  # a .env's unquoted value, a removed line too
    assert "+DB_PASSWORD=${DB_PASSWORD}" in masked
    assert redact_change("", "", "") == ("", "", "")
