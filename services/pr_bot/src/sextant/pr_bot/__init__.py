"""PR bot: reviews posted where the change is discussed (see docs/access.md)."""
