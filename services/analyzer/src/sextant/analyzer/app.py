"""Wiring only: the analyzer consumes ChunksSelected and publishes AnalysisCompleted / SummaryCompleted."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sextant.analyzer.config import AnalyzerSettings
from sextant.analyzer.handlers import STAGE, on_chunks_selected
from sextant.analyzer.previous_outputs import StreamOutputs
from sextant.bootstrap import Adapters, HandlerFactory, ServiceDeclaration
from sextant.bus import Bus, EventHandler
from sextant.contracts import AnalysisCompleted, ChunksSelected, Event, StageFailed, SummaryCompleted

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
