"""Choose and configure the dense embedder from environment variables (unset = the local model).

Variables (empty counts as unset), with their defaults:

- EMBEDDINGS_PROVIDER: local | openai | cohere | ollama (local).
- EMBEDDINGS_MODEL: the provider's model name (all-MiniLM-L6-v2, text-embedding-3-small, embed-v4.0,
  nomic-embed-text).
- EMBEDDINGS_BASE_URL: API root without credentials (https://api.openai.com/v1,
  https://api.cohere.com, OLLAMA_HOST or http://localhost:11434).
- EMBEDDINGS_DIMENSION: vector length; required for a model missing from `known_models`; for
  text-embedding-3-* and embed-v4.0 a smaller value is requested from the provider.
- OPENAI_API_KEY: key for openai (optional when EMBEDDINGS_BASE_URL points at another server).
- COHERE_API_KEY (or CO_API_KEY): key for cohere (required).
- OLLAMA_API_KEY: optional bearer key for a hosted Ollama.
- EMBEDDING_MAX_CHARS: character budget of one embedding text (per model: 1,000 MiniLM, 22,000 for
  8K-token models, 5,500 for Ollama's 2K context, 2,000 for 512-token models).
- EMBEDDINGS_BATCH_SIZE: texts per model call (4 local, 32 openai/ollama, 96 cohere).
- EMBEDDINGS_TIMEOUT: seconds per HTTP attempt (60).
- EMBEDDINGS_MAX_ATTEMPTS: HTTP attempts per batch, the first included (5).
- EMBEDDINGS_CONCURRENCY: HTTP requests in flight per embed call (2).
- EMBEDDINGS_THREADS: onnxruntime threads for the local model (min(2, CPUs)).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TypeVar
from urllib.parse import urlsplit

from sextant.config import env_str
from sextant.embedding.cohere_v2 import CohereEmbedder
from sextant.embedding.errors import EmbeddingError
from sextant.embedding.hosted_embedder import HostedEmbedder
from sextant.embedding.known_models import COHERE, OLLAMA, OPENAI, ProviderDefaults, facts_for
from sextant.embedding.local_minilm import LOCAL_BATCH_SIZE, LOCAL_MAX_CHARS, LocalMiniLM
from sextant.embedding.minilm_model import MINILM_MODEL_ID
from sextant.embedding.ollama_embed import OllamaEmbedder
from sextant.embedding.openai_compatible import OpenAICompatibleEmbedder
from sextant.embedding.port import DenseEmbedder
from sextant.provider_http import RetryPolicy

_N = TypeVar("_N", int, float)

PROVIDERS = ("local", "openai", "cohere", "ollama")
_LOCAL_MODEL_NAMES = frozenset({"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2", MINILM_MODEL_ID.lower()})
_HOSTED: dict[str, tuple[type[HostedEmbedder], ProviderDefaults]] = {
    "openai": (OpenAICompatibleEmbedder, OPENAI),
    "cohere": (CohereEmbedder, COHERE),
    "ollama": (OllamaEmbedder, OLLAMA),
}


def embedder_from_env(env: Mapping[str, str]) -> DenseEmbedder:
    """Build the configured dense embedder (see the module docstring for the variables).

    Args:
        env: Environment variables (pass `os.environ`).

    Returns:
        A `LocalMiniLM`, `OpenAICompatibleEmbedder`, `CohereEmbedder` or `OllamaEmbedder`.

    Raises:
        EmbeddingError: (transient=False) for an unknown provider, a missing key or dimension, or a
            malformed number; the message names the variable, never its secret value.
    """
    settings = _Settings(env)
    provider = (settings.text("EMBEDDINGS_PROVIDER") or "local").lower()
    if provider == "local":
        return _local(settings)
    if provider not in _HOSTED:
        raise EmbeddingError(f"EMBEDDINGS_PROVIDER={provider!r} is not one of {', '.join(PROVIDERS)}", transient=False)
    return _hosted(provider, settings)


def _local(settings: _Settings) -> LocalMiniLM:
    model = settings.text("EMBEDDINGS_MODEL")
    if model is not None and model.lower() not in _LOCAL_MODEL_NAMES:
        raise EmbeddingError(
            f"EMBEDDINGS_MODEL={model!r}: the local provider ships only all-MiniLM-L6-v2", transient=False
        )
    return LocalMiniLM(
        max_chars=settings.number("EMBEDDING_MAX_CHARS") or LOCAL_MAX_CHARS,
        batch_size=settings.number("EMBEDDINGS_BATCH_SIZE") or LOCAL_BATCH_SIZE,
        threads=settings.number("EMBEDDINGS_THREADS"),
    )


def _hosted(provider: str, settings: _Settings) -> HostedEmbedder:
    embedder_class, defaults = _HOSTED[provider]
    model = settings.text("EMBEDDINGS_MODEL") or defaults.model
    base_url = settings.text("EMBEDDINGS_BASE_URL")
    if base_url is None and provider == "ollama":
        base_url = _ollama_host(settings.text("OLLAMA_HOST"))
    base_url = _checked_base_url(base_url or defaults.base_url)
    facts = facts_for(defaults, model)
    requested_dimension = settings.number("EMBEDDINGS_DIMENSION")
    dimension = requested_dimension or (facts.dimension if facts else None)
    if dimension is None:
        raise EmbeddingError(
            f"EMBEDDINGS_DIMENSION must be set for {provider} model {model!r} (its vector length)",
            transient=False,
        )
    send_dimensions = bool(facts and facts.resizable and dimension != facts.dimension)
    return embedder_class(
        model=model,
        dimension=dimension,
        max_chars=settings.number("EMBEDDING_MAX_CHARS") or (facts.max_chars if facts else defaults.max_chars),
        batch_size=settings.number("EMBEDDINGS_BATCH_SIZE") or defaults.batch_size,
        base_url=base_url,
        api_key=_api_key(provider, settings, base_url, defaults),
        retry=RetryPolicy(
            max_attempts=settings.number("EMBEDDINGS_MAX_ATTEMPTS") or RetryPolicy.max_attempts,
            timeout=settings.seconds("EMBEDDINGS_TIMEOUT") or RetryPolicy.timeout,
        ),
        concurrency=settings.number("EMBEDDINGS_CONCURRENCY") or 2,
        send_dimensions=send_dimensions,
    )


def _api_key(provider: str, settings: _Settings, base_url: str, defaults: ProviderDefaults) -> str | None:
    if provider == "openai":
        key = settings.text("OPENAI_API_KEY")
        # Self-hosted OpenAI-compatible servers often need no key; OpenAI itself always does.
        if key is None and base_url == defaults.base_url:
            raise EmbeddingError("OPENAI_API_KEY is not set (EMBEDDINGS_PROVIDER=openai)", transient=False)
        return key
    if provider == "cohere":
        key = settings.text("COHERE_API_KEY") or settings.text("CO_API_KEY")
        if key is None:
            raise EmbeddingError("COHERE_API_KEY is not set (EMBEDDINGS_PROVIDER=cohere)", transient=False)
        return key
    return settings.text("OLLAMA_API_KEY")


def _ollama_host(host: str | None) -> str | None:
    """OLLAMA_HOST as Ollama's own CLI reads it: `host:port` without a scheme is allowed."""
    if host is None:
        return None
    return host if "://" in host else f"http://{host}"


def _checked_base_url(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise EmbeddingError("EMBEDDINGS_BASE_URL must be an http(s) URL", transient=False)
    if parts.username or parts.password or parts.query:
        # Keys belong in headers; a URL ends up in logs and error messages.
        raise EmbeddingError(
            "EMBEDDINGS_BASE_URL must not carry credentials or a query; use the *_API_KEY variables",
            transient=False,
        )
    return url.rstrip("/")


class _Settings:
    """Typed reads of the environment, with errors that name the variable."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self._env = env

    def text(self, name: str) -> str | None:
        return env_str(self._env, name)

    def number(self, name: str) -> int | None:
        return self._positive(name, int, "a whole number", "at least 1")

    def seconds(self, name: str) -> float | None:
        return self._positive(name, float, "a number of seconds", "positive")

    def _positive(self, name: str, parse: Callable[[str], _N], kind: str, bound: str) -> _N | None:
        value = self.text(name)
        if value is None:
            return None
        try:
            parsed = parse(value)
        except ValueError:
            raise EmbeddingError(f"{name} must be {kind}", transient=False) from None
        if parsed <= 0:
            raise EmbeddingError(f"{name} must be {bound}", transient=False)
        return parsed
