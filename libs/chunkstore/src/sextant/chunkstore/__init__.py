"""Chunk store port with embedded (qdrant-edge) and server (qdrant-client) adapters."""
