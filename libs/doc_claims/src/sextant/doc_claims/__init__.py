"""Check documentation claims against the code index."""
