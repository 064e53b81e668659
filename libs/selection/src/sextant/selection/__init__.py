"""select_analysis_chunks: doc-aware, recency-preferring selection."""
