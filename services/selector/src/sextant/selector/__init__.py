"""Selector service."""
