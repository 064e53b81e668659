"""Facts the analyzer computes from the index itself: the offline report's only source."""
