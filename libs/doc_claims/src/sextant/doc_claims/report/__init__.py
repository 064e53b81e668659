"""Step 4, report: findings summarised per doc and rendered for people and prompts."""
