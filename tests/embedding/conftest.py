"""Fixtures for the embedding tests: the real local model (once per session) and a local HTTP server
that speaks the hosted providers' real request/response JSON."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from sextant.embedding import (
    CohereEmbedder,
    HostedEmbedder,
    LocalMiniLM,
    OllamaEmbedder,
    OpenAICompatibleEmbedder,
    RetryPolicy,
)
from sextant.embedding.minilm_model import shared_minilm

from ..support.provider_server import ProviderServer
from ..support.wire_formats import cohere_embeddings, ollama_embeddings, openai_embeddings

FAKE_DIMENSION = 4
SECRET_KEY = "sk-test-SECRET-0123456789abcdef"


@pytest.fixture(scope="session")
def minilm() -> LocalMiniLM:
    """The real local model, loaded once for the whole session (LocalMiniLM shares the loaded copy)."""
    shared_minilm()
    return LocalMiniLM()


def fake_vector(text: str, dimension: int = FAKE_DIMENSION) -> list[float]:
    """A vector a test can trace back to its text: length, then the first characters' code points."""
    values = [float(len(text))] + [float(ord(character)) for character in text[: dimension - 1]]
    return values + [0.0] * (dimension - len(values))


def _success_body(provider: str, request: Any, dimension: int) -> Any:
    if provider == "openai":
        texts = request["input"]
        body = openai_embeddings([fake_vector(text, dimension) for text in texts], model=request["model"])
        body["data"].reverse()  # OpenAI documents `index`; answer out of order so the client must use it
        return body
    if provider == "cohere":
        texts = request["texts"]
        return cohere_embeddings(texts, [fake_vector(text, dimension) for text in texts])
    if provider == "ollama":
        return ollama_embeddings([fake_vector(text, dimension) for text in request["input"]], model=request["model"])
    raise AssertionError(provider)


class FakeProviderServer(ProviderServer):
    """The shared scripted server, answering as the chosen provider (``provider``, ``dimension``) would."""

    def __init__(self) -> None:
        self.provider = "openai"
        self.dimension = FAKE_DIMENSION
        super().__init__(answer=lambda request: _success_body(self.provider, request, self.dimension))


@pytest.fixture
def provider_server() -> Iterator[FakeProviderServer]:
    """A fresh fake provider server per test."""
    with FakeProviderServer() as server:
        yield server


@pytest.fixture
def secret_key() -> str:
    """The fake API key; tests assert it never leaks."""
    return SECRET_KEY


@pytest.fixture
def vector_for() -> Callable[[str], list[float]]:
    """The vector the fake server returns for a text."""
    return fake_vector


FAST_RETRY = RetryPolicy(max_attempts=4, base_delay=0.01, max_delay=5.0, timeout=2.0)
_EMBEDDER_CLASSES: dict[str, type[HostedEmbedder]] = {
    "openai": OpenAICompatibleEmbedder,
    "cohere": CohereEmbedder,
    "ollama": OllamaEmbedder,
}
_MODELS = {"openai": "text-embedding-3-small", "cohere": "embed-v4.0", "ollama": "nomic-embed-text"}


@pytest.fixture
def hosted_embedder(provider_server: FakeProviderServer) -> Callable[..., HostedEmbedder]:
    """Build a provider's embedder pointed at the fake server (fast retries, 4-d vectors, the fake key)."""

    def build(provider: str, **overrides: Any) -> HostedEmbedder:
        provider_server.provider = provider
        base_url = provider_server.url + ("/v1" if provider == "openai" else "")
        settings: dict[str, Any] = {
            "model": _MODELS[provider],
            "dimension": FAKE_DIMENSION,
            "max_chars": 1000,
            "batch_size": 2,
            "base_url": base_url,
            "api_key": SECRET_KEY,
            "retry": FAST_RETRY,
            "concurrency": 1,
        }
        settings.update(overrides)
        return _EMBEDDER_CLASSES[provider](**settings)

    return build
