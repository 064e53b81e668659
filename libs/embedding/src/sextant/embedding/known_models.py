"""Dimensions and context-derived character budgets of the models we know, per provider."""

from __future__ import annotations

from dataclasses import dataclass

EIGHT_K_MAX_CHARS = 22_000
"""8K-token window at ~3.7 chars/token with headroom (the semcode figure)."""
TWO_K_MAX_CHARS = 5_500
"""Ollama's default 2K-token context."""
FIVE_TWELVE_MAX_CHARS = 2_000
"""512-token models (Cohere v3, mxbai, arctic): ~4 chars/token of code."""
TWO_FIFTY_SIX_MAX_CHARS = 1_000
"""256-token models (MiniLM): 1 KB of code is 230-256 WordPiece tokens."""


@dataclass(frozen=True)
class ModelFacts:
    """What we know of one hosted model.

    Attributes:
        dimension: Native vector length.
        max_chars: Character budget that fits its context window.
        resizable: The provider can return shorter vectors on request (Matryoshka models).
    """

    dimension: int
    max_chars: int
    resizable: bool = False


@dataclass(frozen=True)
class ProviderDefaults:
    """A provider's default model, URL and limits for models missing from its table.

    Attributes:
        model: Model used when EMBEDDINGS_MODEL is unset.
        base_url: API root used when EMBEDDINGS_BASE_URL is unset.
        max_chars: Budget for a model we have no facts on.
        batch_size: Texts per request (within the provider's per-request cap).
        models: Known models.
    """

    model: str
    base_url: str
    max_chars: int
    batch_size: int
    models: dict[str, ModelFacts]


OPENAI = ProviderDefaults(
    model="text-embedding-3-small",
    base_url="https://api.openai.com/v1",
    max_chars=EIGHT_K_MAX_CHARS,
    # OpenAI caps a request at 2,048 inputs and 300k tokens: 32 full 8K texts stay under that.
    batch_size=32,
    models={
        "text-embedding-3-small": ModelFacts(1536, EIGHT_K_MAX_CHARS, resizable=True),
        "text-embedding-3-large": ModelFacts(3072, EIGHT_K_MAX_CHARS, resizable=True),
        "text-embedding-ada-002": ModelFacts(1536, EIGHT_K_MAX_CHARS),
    },
)

COHERE = ProviderDefaults(
    model="embed-v4.0",
    base_url="https://api.cohere.com",
    max_chars=EIGHT_K_MAX_CHARS,
    batch_size=96,  # Cohere's per-request maximum
    models={
        # embed-v4.0 reads 128K tokens, but smaller chunks retrieve better; keep the 8K budget.
        "embed-v4.0": ModelFacts(1536, EIGHT_K_MAX_CHARS, resizable=True),
        "embed-english-v3.0": ModelFacts(1024, FIVE_TWELVE_MAX_CHARS),
        "embed-multilingual-v3.0": ModelFacts(1024, FIVE_TWELVE_MAX_CHARS),
        "embed-english-light-v3.0": ModelFacts(384, FIVE_TWELVE_MAX_CHARS),
        "embed-multilingual-light-v3.0": ModelFacts(384, FIVE_TWELVE_MAX_CHARS),
    },
)

OLLAMA = ProviderDefaults(
    model="nomic-embed-text",
    base_url="http://localhost:11434",
    max_chars=TWO_K_MAX_CHARS,
    batch_size=32,
    models={
        "nomic-embed-text": ModelFacts(768, TWO_K_MAX_CHARS),
        "mxbai-embed-large": ModelFacts(1024, FIVE_TWELVE_MAX_CHARS),
        "snowflake-arctic-embed": ModelFacts(1024, FIVE_TWELVE_MAX_CHARS),
        "all-minilm": ModelFacts(384, TWO_FIFTY_SIX_MAX_CHARS),
        "bge-m3": ModelFacts(1024, TWO_K_MAX_CHARS),  # 8K model, but Ollama's default context is 2K
    },
)


def facts_for(defaults: ProviderDefaults, model: str) -> ModelFacts | None:
    """Look a model up, ignoring an Ollama-style `:tag` (`nomic-embed-text:latest`).

    Args:
        defaults: The provider's table.
        model: Model name as configured.

    Returns:
        The facts, or None for a model we do not know.
    """
    return defaults.models.get(model) or defaults.models.get(model.split(":", 1)[0])
