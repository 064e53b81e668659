"""A repository with planted secrets of many kinds, and the code around them that must stay readable.

Keys, tokens, a private key block and passwords sit in code, a ``.env``, YAML and a later commit; the
same repository feeds every test (and the bench) that asks whether a sink — a model prompt, an event,
a hosted embedder or reranker, an MCP answer — receives any of them. ``SECRETS`` lists every value;
``KEPT_CODE`` what a masked text must still show.
"""

from __future__ import annotations

from typing import Any

AWS_KEY = "AKIAQ3EGRT7XK2LMWP4N"
GITHUB_TOKEN = "ghp_R7nqW2xKp9LmT4vZ8cY1bH6dJ3sF0gA5eQuN"
SLACK_TOKEN = "xoxb-2048917364-5501928374615-Zq8RtLp3VwXy9KmN2bCd"
OPENAI_KEY = "sk-proj-Vt5Kx9Qm2Lr7Wp4Zn8Yc3Hb6"
KEY_BODY = ("MIIEowIBAAKCAQEAx7Qm2Lr9Wp4Zn8Yc3Hb6Vt5Kx9Qm2Lr7Wp4Zn8Yc3Hb6Vt5K", "q9Rb2Nw8Ly4Tz1Mx6Pv3Jc7Hd0Fg5Sa8Qe2Wr")
DB_PASSWORD = "Tr0ub4dor-3x!pw"
URL_PASSWORD = "S3cretPassw0rd"
BEARER = "9f8e7d6c5b4a3210fedcba98765432Aa"
ENV_PASSWORD = "k8Lq2Vz9Wm"
YAML_SECRET = "7f3k9x2m4q8w1z6v5b0nPq"
DIFF_TOKEN = "ghp_Z1xC2vB3nM4aS5dF6gH7jK8lQ9wE0rT1yU2i"
DIFF_PASSWORD = "n3wPassw0rd-Rot8"
TITLE_TOKEN = "xoxp-1111222233-4444555566-abcdEFGHijkl"

SECRETS = (
    AWS_KEY, GITHUB_TOKEN, SLACK_TOKEN, OPENAI_KEY, *KEY_BODY, DB_PASSWORD, URL_PASSWORD, BEARER, ENV_PASSWORD,
    YAML_SECRET, DIFF_TOKEN, DIFF_PASSWORD, TITLE_TOKEN,
)  # fmt: skip

SETTINGS = f'''"""Where the service finds its backends."""

import os
from os import getenv

AWS_ACCESS_KEY_ID = "{AWS_KEY}"
GITHUB_TOKEN = "{GITHUB_TOKEN}"
SLACK_BOT_TOKEN = "{SLACK_TOKEN}"
OPENAI_API_KEY = "{OPENAI_KEY}"
DATABASE_URL = "postgres://app:{URL_PASSWORD}@db.internal:5432/orders"
STRIPE_KEY = os.environ["STRIPE_KEY"]
API_TOKEN = getenv("API_TOKEN")
SMTP_PASSWORD = "<your-smtp-password>"


def connect_database(url: str = DATABASE_URL) -> dict[str, str]:
    """Open the orders database."""
    db_password = "{DB_PASSWORD}"
    return {{"url": url, "password": db_password}}


def auth_headers() -> dict[str, str]:
    return {{"Authorization": "Bearer {BEARER}"}}
'''
DEPLOY = f'''"""The deploy key the release job signs with."""

DEPLOY_KEY = """-----BEGIN RSA PRIVATE KEY-----
{KEY_BODY[0]}
{KEY_BODY[1]}
-----END RSA PRIVATE KEY-----
"""


def sign_release(tag: str) -> str:
    return f"signed:{{tag}}"
'''
ENV_FILE = f"DATABASE_PASSWORD={ENV_PASSWORD}\nDATABASE_HOST=db.internal\nCACHE_PASSWORD=${{CACHE_PASSWORD}}\n"
CONFIG_YAML = f"service:\n  name: orders\n  api_secret: {YAML_SECRET}\n  password: ${{ORDERS_PASSWORD}}\n"
README = "# Orders\n\nCall `connect_database()` from `app/settings.py`; set `STRIPE_KEY` first.\n"
ROTATED = f'''"""Credentials after the rotation."""

GITHUB_TOKEN = "{DIFF_TOKEN}"
ADMIN_PASSWORD = "{DIFF_PASSWORD}"


def rotate_credentials(reason: str) -> str:
    return reason
'''
SENT_DIFF = f"""diff --git a/app/rotated.py b/app/rotated.py
--- a/app/rotated.py
+++ b/app/rotated.py
@@ -1,3 +1,3 @@
-GITHUB_TOKEN = "{DIFF_TOKEN}"
+GITHUB_TOKEN = os.environ["GITHUB_TOKEN"]
 ADMIN_PASSWORD = "{DIFF_PASSWORD}"
"""
KEPT_CODE = (
    'os.environ["STRIPE_KEY"]',
    'getenv("API_TOKEN")',
    "def connect_database(url: str = DATABASE_URL)",
    '"<your-smtp-password>"',
    "def sign_release(tag: str)",
    "-----BEGIN RSA PRIVATE KEY-----",
    "postgres://app:",
    "@db.internal:5432/orders",
)


def build_planted_repository(repo: Any) -> tuple[str, str]:
    """Write and commit the planted files into a ``GitRepo``: the first state, then the rotation.

    Returns:
        (first commit, second commit).
    """
    repo.write("app/settings.py", SETTINGS)
    repo.write("app/deploy.py", DEPLOY)
    repo.write(".env", ENV_FILE)
    repo.write("config/service.yaml", CONFIG_YAML)
    repo.write("README.md", README)
    first = repo.commit("first", date="2026-05-01T12:00:00+00:00")
    repo.write("app/rotated.py", ROTATED)
    second = repo.commit("rotate", date="2026-05-02T12:00:00+00:00")
    return first, second
