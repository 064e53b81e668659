"""Cohere /v2/embed: documents as input_type=search_document, queries as search_query."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sextant.embedding.hosted_embedder import HostedEmbedder, Purpose, float_rows, malformed

_INPUT_TYPES: dict[Purpose, str] = {"document": "search_document", "query": "search_query"}


class CohereEmbedder(HostedEmbedder):
    """POST {base_url}/v2/embed with {"model", "texts", "input_type", "embedding_types": ["float"]}.

    Constructor: see `HostedEmbedder`.
    """

    provider = "cohere"
    endpoint_path = "/v2/embed"
    dimensions_field = "output_dimension"

    def _request_body(self, batch: list[str], purpose: Purpose) -> Mapping[str, Any]:
        return {
            "model": self._model,
            "texts": batch,
            "input_type": _INPUT_TYPES[purpose],
            "embedding_types": ["float"],
            # Our texts are budgeted to the window already; END keeps a rare overflow from failing.
            "truncate": "END",
        }

    def _vectors_from(self, payload: Any) -> list[list[float]]:
        embeddings = payload.get("embeddings") if isinstance(payload, dict) else None
        if not isinstance(embeddings, dict) or "float" not in embeddings:
            raise malformed(self.provider, "no 'embeddings.float'")
        return float_rows(embeddings["float"], self.provider)
