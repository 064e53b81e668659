"""Webhooks service: code-host hooks in, Sextant events out (see docs/access.md)."""
