"""Analyzer settings, read once from the environment."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sextant.config import env_flag, read_settings, setting
from sextant.doc_claims import HistoryLocations

ANALYSIS_MAX_TOKENS = 5120
"""Output budget of the analysis (4096 plus headroom for the seventh section; see docs/analysis.md)."""
SUMMARY_MAX_TOKENS = 1024
"""Output budget of the summary (two short parts)."""
CLAIMS_IN_PROMPT = 60
"""Doc-claim findings listed in the prompt's evidence block (contradicted first); the rest are counted."""
CLAIMS_IN_REPORT = 40
"""Doc-claim findings listed in the offline report's Documentation Accuracy section."""


@dataclass(frozen=True)
class AnalyzerSettings:
    """Output budgets and how much evidence is listed."""

    analysis_max_tokens: int = setting("ANALYSIS_MAX_TOKENS", ANALYSIS_MAX_TOKENS)
    summary_max_tokens: int = setting("SUMMARY_MAX_TOKENS", SUMMARY_MAX_TOKENS)
    claims_in_prompt: int = setting("ANALYSIS_CLAIMS_IN_PROMPT", CLAIMS_IN_PROMPT)
    claims_in_report: int = setting("ANALYSIS_CLAIMS_IN_REPORT", CLAIMS_IN_REPORT)
    doc_history: HistoryLocations | None = None
    """Where the doc-claim check reads the repository's history (SEXTANT_HOME/mirrors, or a local
    repository in place with SEXTANT_ALLOW_LOCAL_REPOS); None: the index alone judges the claims
    (ANALYSIS_DOC_HISTORY=false)."""

    def __post_init__(self) -> None:
        if self.analysis_max_tokens < 1 or self.summary_max_tokens < 1:
            raise ValueError("ANALYSIS_MAX_TOKENS and SUMMARY_MAX_TOKENS must be positive")
        if self.claims_in_prompt < 0 or self.claims_in_report < 0:
            raise ValueError("ANALYSIS_CLAIMS_IN_PROMPT and ANALYSIS_CLAIMS_IN_REPORT must not be negative")

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> AnalyzerSettings:
        """Read the settings from environment variables (unset means the default).

        Args:
            env: Environment variables.

        Returns:
            The settings.
        """
        doc_history = HistoryLocations.from_env(env) if env_flag(env, "ANALYSIS_DOC_HISTORY", default=True) else None
        return read_settings(cls, env, doc_history=doc_history)
