"""Dense and sparse embedders: local model and hosted providers."""
