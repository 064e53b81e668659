"""Analyzer service: the doc-skeptical seven-section analysis and the summary, with or without a model."""
