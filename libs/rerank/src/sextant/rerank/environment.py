"""Choose the reranker from environment variables: Cohere when a key is set, else the local one.

- `COHERE_API_KEY`: Cohere key; when set, Cohere reranks.
- `COHERE_RERANK_MODEL`: rerank model; default `rerank-v3.5`.
- `COHERE_BASE_URL`: API root; default `https://api.cohere.com`.
- `RERANK_TIMEOUT_SECONDS`: deadline for one rerank request; default 10.

Empty values count as unset.
"""

from __future__ import annotations

from collections.abc import Mapping

from sextant.config import env_str
from sextant.rerank.cohere import (
    DEFAULT_COHERE_BASE_URL,
    DEFAULT_COHERE_RERANK_MODEL,
    DEFAULT_RERANK_TIMEOUT_SECONDS,
    CohereReranker,
)
from sextant.rerank.local import LocalReranker
from sextant.rerank.result import Reranker


def _get(env: Mapping[str, str], name: str) -> str | None:
    return env_str(env, name)


def reranker_from_env(env: Mapping[str, str]) -> Reranker:
    """Build the configured reranker.

    Args:
        env: Environment variables (pass `os.environ`; tests pass a dict). See the module docstring.

    Returns:
        A CohereReranker when `COHERE_API_KEY` is set, otherwise a LocalReranker.

    Raises:
        ValueError: when RERANK_TIMEOUT_SECONDS or COHERE_BASE_URL is invalid (a startup error, never
            a rerank-time one).
    """
    api_key = _get(env, "COHERE_API_KEY")
    if api_key is None:
        return LocalReranker()
    raw_timeout = _get(env, "RERANK_TIMEOUT_SECONDS")
    try:
        timeout = float(raw_timeout) if raw_timeout else DEFAULT_RERANK_TIMEOUT_SECONDS
    except ValueError:
        raise ValueError("RERANK_TIMEOUT_SECONDS must be a number") from None
    if timeout <= 0:
        raise ValueError("RERANK_TIMEOUT_SECONDS must be positive")
    try:
        return CohereReranker(
            api_key,
            model=_get(env, "COHERE_RERANK_MODEL") or DEFAULT_COHERE_RERANK_MODEL,
            base_url=_get(env, "COHERE_BASE_URL") or DEFAULT_COHERE_BASE_URL,
            timeout=timeout,
        )
    except ValueError as exc:
        raise ValueError(f"COHERE_BASE_URL: {exc}") from None
