"""Where docs and code come from: index payloads, or a git commit read in place."""
