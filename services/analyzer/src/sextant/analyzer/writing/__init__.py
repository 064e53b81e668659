"""Writing what is published: the model's report completed, or the offline report and summary."""
