"""The names the language models and the reranker use for Sextant's one retry policy.

The policy itself (which failures are retried, backoff, ``retry-after``, redaction) lives in
``sextant.provider_http`` and is shared with the embedders; `sextant.llm.endpoint` calls it.
"""

from __future__ import annotations

from sextant.provider_http import ProviderHTTPError, RetryPolicy

ProviderCallError = ProviderHTTPError
"""A provider call that failed for good (``provider``, ``reason``, ``status``, ``attempts``, ``transient``)."""

__all__ = ["ProviderCallError", "RetryPolicy"]
