"""Wiring only: the analyzer consumes ChunksSelected and publishes AnalysisCompleted / SummaryCompleted."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from faststream.nats import NatsRouter

from sextant.analyzer.config import AnalyzerSettings
from sextant.analyzer.handlers import STAGE, on_chunks_selected
from sextant.bus import Bus, RouterFactory, consume
from sextant.contracts import ChunksSelected, Event
from sextant.llm import LanguageModel, model_from_env
from sextant.selection import PayloadSource

SERVICE_NAME = "analyzer"
DURABLE = "analyzer"


def create_router(
    bus: Bus, store: PayloadSource, model: LanguageModel | None, settings: AnalyzerSettings
) -> NatsRouter:
    """The analyzer's router: one durable consumer of ChunksSelected (both purposes)."""
    router = bus.router()

    async def handle(event: ChunksSelected) -> Sequence[Event]:
        return await on_chunks_selected(event, store, model, settings)

    consume(router, bus, event_type=ChunksSelected, durable=DURABLE, stage=STAGE, handle=handle)
    return router


def router_factory(
    env: Mapping[str, str], *, store: PayloadSource, model: LanguageModel | None = None
) -> RouterFactory:
    """A factory the runtime calls with the bus; the store is built once by the caller.

    Args:
        env: Environment: ANALYSIS_MAX_TOKENS, SUMMARY_MAX_TOKENS, ANALYSIS_CLAIMS_IN_PROMPT,
            ANALYSIS_CLAIMS_IN_REPORT, and the model's variables (LLM_PROVIDER, ANTHROPIC_API_KEY,
            LLM_BASE_URL, LLM_MODEL, … — see sextant.llm) unless `model` is given.
        store: The chunk store.
        model: A model to use instead of the one the environment names (tests, embedding callers).

    Returns:
        The factory.

    Raises:
        LanguageModelConfigError: when the environment asks for a model but misconfigures it.
    """
    settings = AnalyzerSettings.from_env(env)
    chosen = model if model is not None else model_from_env(env)
    return lambda bus: create_router(bus, store, chosen, settings)
