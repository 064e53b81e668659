"""Wiring only: the reviewer consumes ReviewRequested and publishes ReviewCompleted."""

from __future__ import annotations

from collections.abc import Mapping

from sextant.bootstrap import Adapters, HandlerFactory, ServiceDeclaration, handler_calling
from sextant.contracts import ReviewCompleted, ReviewRequested, StageFailed
from sextant.reviewer.config import ReviewerSettings
from sextant.reviewer.deps import ReviewerDeps
from sextant.reviewer.handlers import STAGE, on_review_requested

SERVICE_NAME = "reviewer"
DURABLE = "reviewer"


def build_handler(adapters: Adapters, env: Mapping[str, str]) -> HandlerFactory[ReviewRequested]:
    """The reviewer's handler over the shared adapters.

    Args:
        adapters: Shared adapters (store, embedder, sparse encoder, reranker, model, mirrors, tokens).
        env: Environment the settings are read from (REVIEW_*).

    Returns:
        ``bus -> handler``.
    """
    return handler_calling(on_review_requested, ReviewerDeps.from_adapters(ReviewerSettings.from_env(env), adapters))


SERVICE: ServiceDeclaration[ReviewRequested] = ServiceDeclaration(
    name=SERVICE_NAME,
    stage=STAGE,
    durable=DURABLE,
    consumes=ReviewRequested,
    produces=(ReviewCompleted, StageFailed),
    build=build_handler,
    summary="Reviews a change with hybrid retrieval, rerank and recency-aware context.",
)
