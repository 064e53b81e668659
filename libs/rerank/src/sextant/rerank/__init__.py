"""Cohere rerank and a local fallback."""
