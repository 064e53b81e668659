"""Choosing and configuring the embedder from environment variables."""

from __future__ import annotations

from typing import Any

import pytest

from sextant.embedding import (
    CohereEmbedder,
    EmbeddingError,
    LocalMiniLM,
    OllamaEmbedder,
    OpenAICompatibleEmbedder,
    embedder_from_env,
)

from ..support.provider_server import Reply


def test_nothing_set_means_the_local_model() -> None:
    embedder = embedder_from_env({})
    assert isinstance(embedder, LocalMiniLM)
    assert (embedder.model_id, embedder.dimension) == ("all-MiniLM-L6-v2-onnx-int8", 384)
    assert (embedder.max_chars, embedder.batch_size) == (1_000, 4)


def test_local_overrides() -> None:
    embedder = embedder_from_env(
        {"EMBEDDINGS_PROVIDER": "local", "EMBEDDINGS_MODEL": "all-MiniLM-L6-v2",
         "EMBEDDING_MAX_CHARS": "1200", "EMBEDDINGS_BATCH_SIZE": "8", "EMBEDDINGS_THREADS": "1"}
    )  # fmt: skip
    assert (embedder.max_chars, embedder.batch_size) == (1_200, 8)


def test_openai_defaults(secret_key: str) -> None:
    embedder = embedder_from_env({"EMBEDDINGS_PROVIDER": "openai", "OPENAI_API_KEY": secret_key})
    assert isinstance(embedder, OpenAICompatibleEmbedder)
    assert (embedder.model_id, embedder.dimension) == ("openai/text-embedding-3-small", 1536)
    assert (embedder.max_chars, embedder.batch_size) == (22_000, 32)
    assert secret_key not in repr(embedder)


def test_openai_needs_a_key_only_for_openai_itself() -> None:
    with pytest.raises(EmbeddingError, match="OPENAI_API_KEY") as caught:
        embedder_from_env({"EMBEDDINGS_PROVIDER": "openai"})
    assert not caught.value.transient
    local_server = embedder_from_env(
        {"EMBEDDINGS_PROVIDER": "openai", "EMBEDDINGS_BASE_URL": "http://127.0.0.1:8000/v1",
         "EMBEDDINGS_MODEL": "bge-small", "EMBEDDINGS_DIMENSION": "384"}
    )  # fmt: skip
    assert (local_server.model_id, local_server.dimension) == ("openai/bge-small", 384)
    assert local_server.max_chars == 22_000


def test_cohere(secret_key: str) -> None:
    embedder = embedder_from_env(
        {"EMBEDDINGS_PROVIDER": "Cohere", "CO_API_KEY": secret_key, "EMBEDDINGS_MODEL": "embed-english-v3.0"}
    )
    assert isinstance(embedder, CohereEmbedder)
    assert (embedder.dimension, embedder.max_chars, embedder.batch_size) == (1024, 2_000, 96)
    with pytest.raises(EmbeddingError, match="COHERE_API_KEY"):
        embedder_from_env({"EMBEDDINGS_PROVIDER": "cohere"})


def test_ollama_reads_ollama_host() -> None:
    embedder = embedder_from_env({"EMBEDDINGS_PROVIDER": "ollama", "OLLAMA_HOST": "127.0.0.1:11500"})
    assert isinstance(embedder, OllamaEmbedder)
    assert "http://127.0.0.1:11500" in repr(embedder)
    assert (embedder.dimension, embedder.max_chars) == (768, 5_500)
    tagged = embedder_from_env({"EMBEDDINGS_PROVIDER": "ollama", "EMBEDDINGS_MODEL": "mxbai-embed-large:latest"})
    assert tagged.dimension == 1024


def test_an_unknown_model_needs_a_dimension() -> None:
    with pytest.raises(EmbeddingError, match="EMBEDDINGS_DIMENSION"):
        embedder_from_env({"EMBEDDINGS_PROVIDER": "ollama", "EMBEDDINGS_MODEL": "my-own-model"})


def test_max_chars_override_wins() -> None:
    embedder = embedder_from_env({"EMBEDDINGS_PROVIDER": "ollama", "EMBEDDING_MAX_CHARS": "4000"})
    assert embedder.max_chars == 4_000


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"EMBEDDINGS_PROVIDER": "voyage"}, "not one of"),
        ({"EMBEDDINGS_PROVIDER": "local", "EMBEDDINGS_MODEL": "bge-large"}, "only all-MiniLM"),
        ({"EMBEDDINGS_BATCH_SIZE": "many"}, "EMBEDDINGS_BATCH_SIZE must be a whole number"),
        ({"EMBEDDING_MAX_CHARS": "0"}, "at least 1"),
        ({"EMBEDDINGS_PROVIDER": "ollama", "EMBEDDINGS_TIMEOUT": "-1"}, "positive"),
        ({"EMBEDDINGS_PROVIDER": "ollama", "EMBEDDINGS_BASE_URL": "ftp://host"}, "http"),
    ],
)
def test_bad_settings_name_the_variable(env: dict[str, str], message: str) -> None:
    with pytest.raises(EmbeddingError, match=message) as caught:
        embedder_from_env(env)
    assert not caught.value.transient


def test_credentials_in_the_base_url_are_refused(secret_key: str) -> None:
    with pytest.raises(EmbeddingError, match="credentials") as caught:
        embedder_from_env(
            {"EMBEDDINGS_PROVIDER": "openai", "EMBEDDINGS_BASE_URL": f"https://user:{secret_key}@gateway/v1"}
        )
    assert secret_key not in str(caught.value)


async def test_a_smaller_dimension_is_requested_from_resizable_models(secret_key: str, provider_server: Any) -> None:
    provider_server.provider, provider_server.dimension = "openai", 512
    env = {
        "EMBEDDINGS_PROVIDER": "openai",
        "OPENAI_API_KEY": secret_key,
        "EMBEDDINGS_DIMENSION": "512",
        "EMBEDDINGS_BASE_URL": provider_server.url + "/v1/",
    }
    embedder = embedder_from_env(env)
    assert embedder.dimension == 512
    assert len(await embedder.embed_query("x")) == 512
    assert provider_server.requests[0].body["dimensions"] == 512
    assert provider_server.requests[0].path == "/v1/embeddings"


async def test_timeouts_and_attempts_come_from_the_environment(provider_server: Any) -> None:
    provider_server.provider = "ollama"
    provider_server.script(Reply(status=500, body={}), Reply(status=500, body={}))
    env = {
        "EMBEDDINGS_PROVIDER": "ollama",
        "EMBEDDINGS_MODEL": "all-minilm",
        "EMBEDDINGS_DIMENSION": "4",
        "EMBEDDINGS_BASE_URL": provider_server.url,
        "EMBEDDINGS_MAX_ATTEMPTS": "2",
        "EMBEDDINGS_TIMEOUT": "0.5",
    }
    with pytest.raises(EmbeddingError, match="HTTP 500"):
        await embedder_from_env(env).embed(["x"])
    assert len(provider_server.requests) == 2
