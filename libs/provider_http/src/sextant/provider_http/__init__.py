"""The one way Sextant calls a hosted model API over HTTP: which failures are retried, how long to wait.

Embeddings, language models and the reranker all go through ``post_json`` with a ``RetryPolicy``.
"""

from sextant.provider_http.errors import ProviderHTTPError
from sextant.provider_http.policy import RetryPolicy
from sextant.provider_http.post import PostResult, post_json
from sextant.provider_http.statuses import is_retryable_status

__all__ = ["PostResult", "ProviderHTTPError", "RetryPolicy", "is_retryable_status", "post_json"]
