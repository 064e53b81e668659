"""Source parsing into symbols and chunks."""
