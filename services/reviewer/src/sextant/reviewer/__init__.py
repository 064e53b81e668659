"""Reviewer service."""
