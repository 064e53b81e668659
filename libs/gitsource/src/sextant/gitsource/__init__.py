"""Safe git access: clones, recency scan, tree listing, blob reads."""
