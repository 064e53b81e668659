"""Step 2, claims: which mentions claim something about this repository's code, and how firmly."""
