"""Recency scanner service."""
