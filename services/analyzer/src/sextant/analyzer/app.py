"""Wiring only: the analyzer consumes ChunksSelected and publishes AnalysisCompleted / SummaryCompleted;
its reviser consumes HistoryHydrated and publishes DocClaimsRejudged (and a revised AnalysisCompleted)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sextant.analyzer.config import AnalyzerSettings
from sextant.analyzer.handlers import STAGE, Writing, on_chunks_selected
from sextant.analyzer.previous_outputs import StreamOutputs
from sextant.analyzer.revision import DURABLE as REVISER_DURABLE
from sextant.analyzer.revision import Reviser, on_history_hydrated
from sextant.analyzer.run_records import StreamRuns
from sextant.bootstrap import Adapters, HandlerFactory, ServiceDeclaration
from sextant.bus import Bus, EventHandler
from sextant.config import env_int
from sextant.contracts import (
    AnalysisCompleted,
    ChunksSelected,
    DocClaimsRejudged,
    Event,
    HistoryHydrated,
    StageFailed,
    SummaryCompleted,
)

SERVICE_NAME = "analyzer"
DURABLE = "analyzer"


def build_handler(adapters: Adapters, env: Mapping[str, str]) -> HandlerFactory[ChunksSelected]:
    """The analyzer's handler over the shared store and language model (None: evidence-only reports).

    Args:
        adapters: Shared adapters (store, model).
        env: Environment the settings are read from (ANALYSIS_MAX_TOKENS, SUMMARY_MAX_TOKENS,
            ANALYSIS_CLAIMS_IN_PROMPT, ANALYSIS_CLAIMS_IN_REPORT, and where the doc-claim check finds
            the repository's history: ANALYSIS_DOC_HISTORY, SEXTANT_HOME, SEXTANT_ALLOW_LOCAL_REPOS).

    Returns:
        ``bus -> handler``.

    Raises:
        LanguageModelConfigError: when the environment asks for a model but misconfigures it.
    """
    settings = AnalyzerSettings.from_env(env)
    store, model = adapters.store, adapters.model

    def for_bus(bus: Bus) -> EventHandler[ChunksSelected]:
        previous = StreamOutputs(bus)  # an unchanged selection reuses the last output on the stream

        async def handle(event: ChunksSelected) -> Sequence[Event]:
            return await on_chunks_selected(event, store, model, settings, previous)

        return handle

    return for_bus


SERVICE: ServiceDeclaration[ChunksSelected] = ServiceDeclaration(
    name=SERVICE_NAME,
    stage=STAGE,
    durable=DURABLE,
    consumes=ChunksSelected,
    produces=(AnalysisCompleted, SummaryCompleted, StageFailed),
    build=build_handler,
    summary="Writes the seven-section analysis and the summary from the selected chunks.",
)


REVISION_WAIT_VARIABLE = "ANALYSIS_REVISION_WAIT_SECONDS"
"""How long the reviser waits for a run's first analysis when the run's history came first (default 900)."""


def build_reviser(adapters: Adapters, env: Mapping[str, str]) -> HandlerFactory[HistoryHydrated]:
    """The reviser's handler over the analyzer's store, model and settings.

    Args:
        adapters: Shared adapters (store, model).
        env: The analyzer's environment, and ANALYSIS_REVISION_WAIT_SECONDS.

    Returns:
        ``bus -> handler``.
    """
    settings = AnalyzerSettings.from_env(env)
    store, model = adapters.store, adapters.model
    wait_seconds = float(max(0, env_int(env, REVISION_WAIT_VARIABLE, 900)))

    def for_bus(bus: Bus) -> EventHandler[HistoryHydrated]:
        writing = Writing(store, model, settings, StreamOutputs(bus))
        reviser = Reviser(writing=writing, runs=StreamRuns(bus), wait_seconds=wait_seconds)

        async def handle(event: HistoryHydrated) -> Sequence[Event]:
            return await on_history_hydrated(event, reviser)

        return handle

    return for_bus


REVISER: ServiceDeclaration[HistoryHydrated] = ServiceDeclaration(
    name="analysis-reviser",
    stage=STAGE,  # part of the analyzer's stage: the analysis it publishes is the analyzer's result
    durable=REVISER_DURABLE,
    consumes=HistoryHydrated,
    produces=(AnalysisCompleted, DocClaimsRejudged),
    build=build_reviser,
    summary="Judges a run's doc claims again once its history fetch ended; revises the analysis if they changed.",
)
