"""Shared rules: doc vs code classification and the staleness gap."""
