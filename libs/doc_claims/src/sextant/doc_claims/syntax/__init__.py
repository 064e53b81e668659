"""Step 1, syntax: where each markup writes names (inline code, links, roles, code-block lines)."""
