"""Ollama /api/embed (batched input, L2-normalised output)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sextant.embedding.hosted_embedder import HostedEmbedder, Purpose, float_rows, malformed

# nomic-embed-text was trained with task prefixes and retrieves markedly worse without them.
_NOMIC_PREFIXES: dict[Purpose, str] = {"document": "search_document: ", "query": "search_query: "}


class OllamaEmbedder(HostedEmbedder):
    """POST {base_url}/api/embed with {"model", "input": [...], "truncate": true}.

    Constructor: see `HostedEmbedder` (`api_key` is optional: a plain Ollama needs none).
    """

    provider = "ollama"
    endpoint_path = "/api/embed"
    dimensions_field = "dimensions"

    def _request_body(self, batch: list[str], purpose: Purpose) -> Mapping[str, Any]:
        prefix = _NOMIC_PREFIXES[purpose] if "nomic-embed-text" in self._model else ""
        return {
            "model": self._model,
            "input": [prefix + text for text in batch],
            "truncate": True,
        }

    def _vectors_from(self, payload: Any) -> list[list[float]]:
        embeddings = payload.get("embeddings") if isinstance(payload, dict) else None
        if embeddings is None:
            raise malformed(self.provider, "no 'embeddings'")
        return float_rows(embeddings, self.provider)
