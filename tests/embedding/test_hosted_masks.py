"""A hosted embedding provider never receives a secret a repository holds; the code around it, it does.

The planted repository's files go through the real chunker (the dense texts the indexer embeds), then
through each provider's embedder to the local server speaking its wire format; what the server
received is searched for every planted value. A query holding a token is masked too.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from sextant.embedding.provider_text import masked_for_provider, named_file
from sextant.parsing import build_chunks

from ..support.planted_repository import (
    CONFIG_YAML,
    DEPLOY,
    ENV_FILE,
    ENV_PASSWORD,
    GITHUB_TOKEN,
    README,
    ROTATED,
    SECRETS,
    SETTINGS,
    YAML_SECRET,
)

PROVIDERS = ["openai", "cohere", "ollama"]
FILES = {
    "app/settings.py": SETTINGS,
    "app/deploy.py": DEPLOY,
    "app/rotated.py": ROTATED,
    ".env": ENV_FILE,
    "config/service.yaml": CONFIG_YAML,
    "README.md": README + f"\nRun with `export API_TOKEN={GITHUB_TOKEN}` once.\n",
}


def _dense_texts() -> list[str]:
    return [chunk.dense_text for path, text in FILES.items() for chunk in build_chunks(path, text, max_chars=1000)]


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_no_planted_secret_reaches_a_hosted_provider(
    provider: str, provider_server: Any, hosted_embedder: Any
) -> None:
    embedder = hosted_embedder(provider)
    texts = _dense_texts()
    planted = [secret for secret in SECRETS if any(secret in text for text in texts)]
    assert len(planted) >= 10, "the chunks hold the planted secrets"

    vectors = await embedder.embed(texts)
    await embedder.embed_query(f"where is {GITHUB_TOKEN} used")

    assert len(vectors) == len(texts)
    wire = "\n".join(json.dumps(request.body) for request in provider_server.requests)
    assert [secret for secret in SECRETS if secret in wire] == []
    for kept in ("def connect_database(url: str = DATABASE_URL)", 'os.environ[\\"STRIPE_KEY\\"]', "DATABASE_HOST"):
        assert kept in wire
    assert "<redacted:aws-key>" in wire
    assert "<redacted:private-key>" in wire


def test_the_header_names_the_file_that_chooses_the_rules() -> None:
    by_path = {named_file(text) for text in _dense_texts()}
    assert by_path == set(FILES)
    env_chunk = next(text for text in _dense_texts() if named_file(text) == ".env")
    yaml_chunk = next(text for text in _dense_texts() if named_file(text) == "config/service.yaml")
    # Unquoted config values are literals only in a config file: the path is what masks them.
    assert ENV_PASSWORD not in masked_for_provider(env_chunk)
    assert YAML_SECRET not in masked_for_provider(yaml_chunk)
    assert masked_for_provider("password = read_password()") == "password = read_password()"
