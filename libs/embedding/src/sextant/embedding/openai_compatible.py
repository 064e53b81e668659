"""OpenAI-compatible /v1/embeddings: OpenAI itself, Azure-style gateways, vLLM, LM Studio, LiteLLM, ..."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sextant.embedding.hosted_embedder import HostedEmbedder, Purpose, float_rows, malformed


class OpenAICompatibleEmbedder(HostedEmbedder):
    """POST {base_url}/embeddings with {"model", "input": [...], "encoding_format": "float"}.

    Constructor: see `HostedEmbedder`.
    """

    provider = "openai"
    endpoint_path = "/embeddings"
    dimensions_field = "dimensions"

    def _request_body(self, batch: list[str], purpose: Purpose) -> Mapping[str, Any]:
        return {"model": self._model, "input": batch, "encoding_format": "float"}

    def _vectors_from(self, payload: Any) -> list[list[float]]:
        data = payload.get("data") if isinstance(payload, dict) else None
        if not isinstance(data, list):
            raise malformed(self.provider, "no 'data' list")
        # Each item carries its input position; order by it rather than trusting list order.
        try:
            ordered = sorted(data, key=lambda item: int(item["index"]))
            rows = [item["embedding"] for item in ordered]
        except (KeyError, TypeError, ValueError):
            raise malformed(self.provider, "items need 'index' and 'embedding'") from None
        return float_rows(rows, self.provider)
