"""Analyzer service."""
