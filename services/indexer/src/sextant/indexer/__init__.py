"""Indexer service."""
